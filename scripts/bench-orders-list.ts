/**
 * Benchmark: the Submitted orders list (a two-status test filter, newest first, 15 a page, all 10 facets)
 * through the real HTTP API at concurrency 10, against the bare driver queries that fetch the same page, count
 * and facets (the aggregates the list engine sends, straight from the driver, then the page's requisitions by
 * `_id`). It first times how long a freshly started server process takes to answer its first orders list (that
 * request, and the Submitted tab as the console asks it: the rows, and the facets route beside) on a list
 * nobody asked for, later the same while the list is in use (its counts shared through the store by the
 * benchmark's own server), and it ends with the same list without facets (the rows request of the console).
 *
 *   export MONGO_URL='mongodb://oncotrf:oncotrf-local@127.0.0.1:27017/oncotrf_bench?authSource=admin'
 *   npm run seed:scale -- --requisitions 100000     # once, into that database
 *   npm run bench:orders -- [--requests 200] [--concurrency 10] [--role administrator|npi] [--designs N]
 *                           [--explain] [--no-first]
 *
 * `--designs N` also times N requests of each of the two plans the engine was chosen from, bare: (a) ONE
 * aggregate, `$match` on what no facet narrows, then `$facet` {page, total, one sub-pipeline per facet with the
 * other facets' filters}; (b) the page `find`, `countDocuments` and one `$group` aggregate per facet, all in
 * parallel. `--explain` prints the plans of the page query and of the list's aggregates.
 * Prints p50/p95 latency and requests per second, and the API/bare ratio (target: within 1.5x). Not a test:
 * figures go to docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Collection } from 'mongodb';
import {
  buildMatch,
  listAggregates,
  listAnswer,
  facetStages,
  planStages,
  orderedHint,
  parseListQuery,
  type ListQuery,
} from '@onco/platform';
import type { Role } from '@onco/domain';
import { requisitionListScope, requisitionsResource as R } from '@onco/requisitions';
import { demoLogin } from '@onco/server';
import {
  arg,
  benchConfig,
  fmt,
  run,
  runBench,
  signIn,
  signInSession,
  startBenchServer,
  withoutCredentials,
} from './bench-support';

const ROOT = path.resolve(import.meta.dirname, '..');
const FACETS = R.facets!.map((f) => f.name);
const QUERY = {
  filter: JSON.stringify({ status: 'eq(SUBMITTED)', testStatus: 'in(IN_PROGRESS,REPORT_COMPLETE)' }),
  sort: 'updatedOn,DESC',
  page: '0',
  size: '15',
  facets: FACETS.join(','),
};

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** What the console asks when the Submitted tab opens: the rows (ra-data-simple-rest) and, beside, the facets. */
const CONSOLE_LIST = {
  filter: JSON.stringify({ status: ['SUBMITTED', 'INVALID'] }),
  range: '[0,14]',
  sort: '["updatedOn","DESC"]',
};
const CONSOLE_FACETS = { filter: CONSOLE_LIST.filter, facets: FACETS.join(',') };

/**
 * A fresh server process (services/server/src/main.ts, no workers, no console) on the same database: the time
 * until it answers /health, then its first answer (sign-in excluded), measured from outside: `bench` is the
 * benchmark's request (rows, total and 10 facets in one); `console` is the console's Submitted tab (the rows
 * and the facets route, in parallel, until both are in). Then the same again (the second answer).
 */
async function firstAnswer(role: Role, password: string, kind: 'bench' | 'console') {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKERS: 'false',
      SERVE_CONSOLE: 'false',
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      const up = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (performance.now() - t0 > 120_000) throw new Error('the server did not start in 2 minutes');
      await new Promise((r) => setTimeout(r, 25));
    }
    const listening = performance.now() - t0;
    const token = await signIn(base, role, password);
    const get = async (path: string, qs: Record<string, string>) => {
      const res = await fetch(`${base}/portal/api/v1/${path}?${new URLSearchParams(qs)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const ask = () =>
      kind === 'bench'
        ? get('testOrderForms', QUERY)
        : Promise.all([get('testOrderForms', CONSOLE_LIST), get('testOrderForms/facets', CONSOLE_FACETS)]);
    const t1 = performance.now();
    await ask();
    const first = performance.now() - t1;
    const t2 = performance.now();
    await ask();
    return { listening, first, second: performance.now() - t2 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

/** The two plans the engine was chosen from (see the header), bare. */
function designs(coll: Collection, query: ListQuery, scope: Record<string, unknown>) {
  const defs = R.facets!;
  const sort: Record<string, 1 | -1> = { [query.sort.path]: -1, _id: -1 };
  const facetFields = new Set(defs.map((d) => d.field));
  const late = query.filters.filter((f) => facetFields.has(f.field));
  const base = buildMatch(R, { ...query, filters: query.filters.filter((f) => !late.includes(f)) }, scope);
  const lateMatch = (except?: string) => {
    const m = buildMatch(R, { ...query, q: undefined, includeDeleted: true, filters: late }, {}, except);
    return Object.keys(m).length ? [{ $match: m }] : [];
  };
  const paths = [
    ...new Set(
      [
        query.sort.path,
        ...late.map((f) => f.path),
        ...defs.map((d) => R.fields[d.field].path ?? d.field),
      ].map((p) => p.split('.')[0]),
    ),
  ];
  const byIds = (ids: unknown[]) =>
    coll.find({ _id: { $in: ids as any[] } }, { projection: { outbox: 0 } }).toArray();
  const a = async () => {
    const [r] = await coll
      .aggregate([
        { $match: base },
        { $project: Object.fromEntries(paths.map((p) => [p, 1])) },
        {
          $facet: {
            page: [...lateMatch(), { $sort: sort }, { $limit: 15 }, { $project: { _id: 1 } }],
            total: [...lateMatch(), { $count: 'n' }],
            ...Object.fromEntries(
              defs.map((d, i) => [`f${i}`, [...lateMatch(d.field), ...facetStages(R, d)]]),
            ),
          },
        },
      ])
      .toArray();
    await byIds(r.page.map((d: any) => d._id));
  };
  const b = async () => {
    const match = buildMatch(R, query, scope);
    await Promise.all([
      coll
        .find(match, { projection: { outbox: 0 } })
        .sort(sort)
        .limit(15)
        .toArray(),
      coll.countDocuments(match),
      ...defs.map((d) =>
        coll.aggregate([{ $match: buildMatch(R, query, scope, d.field) }, ...facetStages(R, d)]).toArray(),
      ),
    ]);
  };
  return { a, b };
}

async function main() {
  const requests = Number(arg('requests', '200'));
  const concurrency = Number(arg('concurrency', '10'));
  const role = `ROLE_${arg('role', 'administrator').toUpperCase().replace(/\./g, '_')}` as Role;
  const config = benchConfig();

  if (!process.argv.includes('--no-first')) {
    for (const kind of ['bench', 'console'] as const) {
      const f = await firstAnswer(role, config.DEMO_PASSWORD, kind);
      console.log(
        `[bench] a fresh server process: /health answers ${secs(f.listening)} after its start; its first ${kind === 'bench' ? 'orders list (rows, total, 10 facets)' : 'Submitted tab as the console asks it (rows + facets route, in parallel)'} ${secs(f.first)} (sign-in excluded), the second ${secs(f.second)}`,
      );
    }
  }

  const { system, base } = await startBenchServer(config);
  try {
    const coll = system.ctx.mongo.collection('test_order_forms');
    const total = await coll.countDocuments({});
    console.log(`[bench] database ${withoutCredentials(config.MONGO_URL)}: ${total} requisitions`);
    if (total < 1000) console.log('[bench] hint: npm run seed:scale -- --requisitions 100000 first');

    // the list's index-ordered index is built in the background at start (ordered-indexes.ts): wait for it
    const db = system.ctx.mongo.db!.databaseName;
    const waitFrom = Date.now();
    while (
      !orderedHint(db, 'test_order_forms', { updatedOn: -1, _id: -1 }) &&
      Date.now() - waitFrom < 300_000
    )
      await new Promise((r) => setTimeout(r, 200));
    console.log(
      `[bench] index-ordered index for newest-first pages: ${orderedHint(db, 'test_order_forms', { updatedOn: -1, _id: -1 }) ?? 'NOT READY (pages sort their matches)'} (waited ${secs(Date.now() - waitFrom)}); counts kept ${config.LIST_COUNTS_TTL_MS} ms from ${config.LIST_COUNTS_MIN_ROWS} rows`,
    );

    // the user as the server sees it: its data scope (the bare queries must ask for the same rows)
    const { headers, user } = await signInSession(base, role, config.DEMO_PASSWORD);
    const url = `${base}/portal/api/v1/testOrderForms?${new URLSearchParams(QUERY)}`;
    const query = parseListQuery(R, QUERY);
    const scope = requisitionListScope(user, query);
    const first = await (await fetch(url, { headers })).json();

    // the bare driver queries that fetch the same page, count and facets: the engine's aggregates, in
    // parallel, then the page's requisitions by _id (what the API does, without HTTP, mongoose and mapping)
    const { defs, aggregates } = listAggregates(R, query, scope, query.facets, true);
    const bare = async () => {
      const answers = await Promise.all(aggregates.map((a) => coll.aggregate(a.pipeline).toArray()));
      const { pageIds } = listAnswer(defs, aggregates, answers);
      await coll.find({ _id: { $in: pageIds as any[] } }, { projection: { outbox: 0 } }).toArray();
    };
    {
      // the bare queries must fetch what the API answered
      const answers = await Promise.all(aggregates.map((a) => coll.aggregate(a.pipeline).toArray()));
      const got = listAnswer(defs, aggregates, answers);
      if (
        got.total !== first.totalElements ||
        got.pageIds.join() !== first.content.map((r: any) => r.id).join()
      )
        throw new Error(`the bare queries differ from the API: ${got.total} vs ${first.totalElements} rows`);
    }
    const api = async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`list failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    console.log(
      `[bench] query: Submitted, test status in (IN_PROGRESS, REPORT_COMPLETE), newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${demoLogin(role)}; ${aggregates.length} aggregates a request`,
    );

    if (process.argv.includes('--explain')) {
      const match = buildMatch(R, query, scope);
      const page = await coll
        .find(match)
        .sort({ updatedOn: -1, _id: -1 })
        .limit(15)
        .explain('executionStats');
      console.log(
        `[bench] explain, the page query (find): ${planStages(page.queryPlanner ?? page, { withIndex: true }).join(' > ')}`,
      );
      for (const a of aggregates) {
        const plan = await coll.aggregate(a.pipeline).explain('queryPlanner');
        const stages = planStages(plan, { withIndex: true }).filter((s) => /SCAN|FETCH|INDEX|AND|OR/.test(s));
        console.log(`[bench] explain, aggregate ${a.branch ?? '$facet'}: ${stages.join(' > ')}`);
      }
    }

    // warm-up
    await run(Math.min(10, requests), Math.min(concurrency, 5), bare);
    await run(Math.min(10, requests), Math.min(concurrency, 5), api);
    console.log(`[bench] ${requests} requests at concurrency ${concurrency}`);
    // the API first, right after its warm-up: the bare run takes minutes, after which the list's kept counts
    // have expired (LIST_COUNTS_TTL_MS x 3) and the API's first requests would count again (that case, a
    // question not asked for a while, is the "never asked" figure below)
    const a = await run(requests, concurrency, api);
    console.log(`[bench] API (HTTP)          : ${fmt(a)}`);
    const b = await run(requests, concurrency, bare);
    console.log(`[bench] bare driver queries : ${fmt(b)}`);
    console.log(
      `[bench] ratio API/bare: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x, throughput ${(b.rps / a.rps).toFixed(2)}x (target: within 1.5x; p95 target 150 ms)`,
    );
    // what the API reads while the list's counts are kept: the page alone, by the same hinted find; the bare
    // side of that is the driver's same find (the overhead ratio of the warm path)
    const match = buildMatch(R, query, scope);
    const hint = orderedHint(db, 'test_order_forms', { updatedOn: -1, _id: -1 });
    const barePage = (page: number) => async () => {
      const f = coll
        .find(match, { projection: { outbox: 0 } })
        .sort({ updatedOn: -1, _id: -1 })
        .skip(page * 15)
        .limit(15);
      await (hint ? f.hint(hint) : f).toArray();
    };
    await api(); // counts the question again after the bare run's minutes (its kept counts expired)
    let n = 0;
    const pages = Number(arg('pages', '20'));
    const paging = await run(requests, concurrency, async () => {
      const page = n++ % pages;
      const res = await fetch(
        `${base}/portal/api/v1/testOrderForms?${new URLSearchParams({ ...QUERY, page: String(page) })}`,
        { headers },
      );
      if (!res.ok) throw new Error(`list failed: ${res.status}`);
      await res.json();
    });
    n = 0;
    const pagingBare = await run(requests, concurrency, () => barePage(n++ % pages)());
    console.log(`[bench] API, pages 1-${pages} in turn (counts kept)  : ${fmt(paging)}`);
    console.log(`[bench] bare, the same pages' hinted find        : ${fmt(pagingBare)}`);
    console.log(
      `[bench] ratio API/bare (paging): p50 ${(paging.p50 / pagingBare.p50).toFixed(2)}x, p95 ${(paging.p95 / pagingBare.p95).toFixed(2)}x`,
    );
    // a fresh server process started while the list is in use (a restart, a deploy, one more process): the
    // counts this process keeps are in the store (LIST_COUNTS_SHARED), so it only reads the page
    if (!process.argv.includes('--no-first') && config.LIST_COUNTS_SHARED) {
      const consoleAsk = () =>
        Promise.all(
          [
            `${base}/portal/api/v1/testOrderForms?${new URLSearchParams(CONSOLE_LIST)}`,
            `${base}/portal/api/v1/testOrderForms/facets?${new URLSearchParams(CONSOLE_FACETS)}`,
          ].map(async (u) => (await fetch(u, { headers })).json()),
        );
      for (const kind of ['bench', 'console'] as const) {
        await (kind === 'bench' ? api() : consoleAsk()); // the list in use: its counts kept (and shared)
        const f = await firstAnswer(role, config.DEMO_PASSWORD, kind);
        console.log(
          `[bench] a fresh server process while the list is in use (counts shared): its first ${kind === 'bench' ? 'orders list' : 'Submitted tab (rows + facets)'} ${secs(f.first)} (started in ${secs(f.listening)}), the second ${secs(f.second)}`,
        );
      }
    }
    // a question nobody asked yet counts again: each request a different search (no kept counts to use)
    const fresh = Number(arg('fresh', '20'));
    if (fresh > 0) {
      let k = 0;
      const cold = await run(fresh, Math.min(concurrency, fresh), async () => {
        const q = `${1000 + k++}`; // a digit run of the TRF number: a new question every time
        const res = await fetch(
          `${base}/portal/api/v1/testOrderForms?${new URLSearchParams({ ...QUERY, q })}`,
          { headers },
        );
        if (!res.ok) throw new Error(`list failed: ${res.status}`);
        await res.json();
      });
      console.log(`[bench] API, ${fresh} questions never asked before (searches; counted): ${fmt(cold)}`);
    }
    // for comparison: the same list without facets (the page and the total: find + countDocuments)
    const plainUrl = `${base}/portal/api/v1/testOrderForms?${new URLSearchParams({ ...QUERY, facets: '' })}`;
    await (await fetch(plainUrl, { headers })).json(); // its first request counts (another question)
    const plain = await run(Math.min(60, requests), concurrency, async () => {
      await (await fetch(plainUrl, { headers })).json();
    });
    console.log(
      `[bench] API without facets (page and total only), ${Math.min(60, requests)} requests: ${fmt(plain)}`,
    );

    const designRequests = Number(arg('designs', '0'));
    if (designRequests > 0) {
      const d = designs(coll, query, scope);
      const c = Math.min(concurrency, designRequests);
      console.log(`[bench] the plans compared, bare, ${designRequests} requests each at concurrency ${c}:`);
      console.log(
        `[bench]   engine (as above)                      : ${fmt(await run(designRequests, c, bare))}`,
      );
      console.log(
        `[bench]   (a) one aggregate, $facet of everything : ${fmt(await run(designRequests, c, d.a))}`,
      );
      console.log(
        `[bench]   (b) find + count + $group per facet     : ${fmt(await run(designRequests, c, d.b))}`,
      );
    }
  } finally {
    await system.close();
  }
}

runBench(main);
