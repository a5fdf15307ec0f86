/**
 * Benchmark: the Submitted orders list (a facet filter, newest first, 15 a page, with its 10 facets) through
 * the real HTTP API at concurrency 10, against the bare driver reads the API makes per request once its process
 * holds the list's rows (the change log, then the page's 15 requisitions by `_id`); it also prints the time of
 * the first request, which reads and decodes every row. `--scan-rate` first times one scan
 * of the read model and one of the full requisitions (minutes at 100,000).
 * `--naive N` also times N requests of the former plan (page, count and one $group per facet on the full
 * requisitions) for reference: at 100,000 requisitions each takes minutes.
 *
 *   npm run seed:scale -- --requisitions 100000     # once, into the same database
 *   npm run bench:orders -- [--requests 200] [--concurrency 10] [--role administrator|npi] [--naive 0]
 *
 * Prints p50/p95 latency and requests per second for both, and the API/bare ratio (target: within 1.5x). The API
 * reuses a list answer for the same question while no row changed (as lab staff opening the same list do), so
 * it also times 60 requests that each ask a question of their own (created since a different day), each
 * answered by a scan of its own.
 * Not a test: figures go to the README.
 */
import pino from 'pino';
import { buildMatch, listScanStats, loadConfig, parseListQuery } from '@onco/platform';
import { permissionsOf, type Role } from '@onco/domain';
import { requisitionListScope, requisitionsResource } from '../services/requisitions/src/resource';
import {
  ensureListRows,
  LIST_ROW_CHANGES_COLLECTION,
  LIST_ROWS_COLLECTION,
  readListRows,
} from '../services/requisitions/src/list-rows';
import { buildSystem } from '../services/server/src/system';
import { demoLogin } from '../services/server/src/seed';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};

const FACETS = requisitionsResource.facets!.map((f) => f.name);
const QUERY = {
  filter: JSON.stringify({ status: 'eq(SUBMITTED)', testStatus: 'in(IN_PROGRESS,REPORT_COMPLETE)' }),
  sort: 'updatedOn,DESC',
  page: '0',
  size: '15',
  facets: FACETS.join(','),
};

function stats(samples: number[], wallMs: number) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50), p95: at(95), rps: (samples.length / wallMs) * 1000 };
}

async function run(requests: number, concurrency: number, once: () => Promise<void>) {
  const samples: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t = performance.now();
        await once();
        samples.push(performance.now() - t);
      }
    }),
  );
  return stats(samples, performance.now() - start);
}

const fmt = (r: { p50: number; p95: number; rps: number }) =>
  `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, ${r.rps.toFixed(1)} req/s`;

async function main() {
  const requests = Number(arg('requests', '200'));
  const concurrency = Number(arg('concurrency', '10'));
  const role = `ROLE_${arg('role', 'administrator').toUpperCase().replace(/\./g, '_')}` as Role;
  const config = loadConfig({
    ...process.env,
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'true',
    PORT: '0',
  });
  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.listen({ port: 0, host: '127.0.0.1' });
  const address = system.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const Requisition = system.ctx.mongo.collection('test_order_forms');
    let t0 = performance.now();
    await ensureListRows(system.ctx.mongo);
    console.log(`[bench] list rows checked/filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    const rows = await readListRows(system.ctx.mongo);
    const total = rows.length;
    const submitted = rows.filter((r) => r.status === 'SUBMITTED').length;
    console.log(
      `[bench] database ${config.MONGO_URL}: ${total} requisitions (${submitted} submitted); reading and decoding every row took ${(performance.now() - t0).toFixed(0)} ms`,
    );
    if (total < 1000) console.log('[bench] hint: npm run seed:scale -- --requisitions 100000 first');
    if (process.argv.includes('--scan-rate')) {
      // what one scan costs per document, by stored size: the read model against the full requisitions
      for (const name of [LIST_ROWS_COLLECTION, 'test_order_forms']) {
        const c = system.ctx.mongo.collection(name);
        const stats = await system.ctx.mongo.db!.command({ collStats: name });
        const t = performance.now();
        const n = (await c.find({}, { projection: { _id: 1 } }).toArray()).length;
        const ms = performance.now() - t;
        console.log(
          `[bench] scan ${name}: ${stats.count} documents of ${stats.avgObjSize} bytes on average, ${n} matched, ${(ms / 1000).toFixed(1)} s = ${((ms * 1000) / stats.count).toFixed(0)} µs a document`,
        );
      }
    }

    const login = await fetch(`${base}/uam/api/v1/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: Buffer.from(demoLogin(role)).toString('base64'),
        password: Buffer.from(config.DEMO_PASSWORD).toString('base64'),
      }),
    });
    if (!login.ok)
      throw new Error(`sign-in as ${demoLogin(role)} failed: ${login.status} ${await login.text()}`);
    const { token, grantedAuthorities, accountIds, physicianIds, id } = (await login.json()) as any;
    const url = `${base}/portal/api/v1/testOrderForms?${new URLSearchParams(QUERY)}`;
    const headers = { authorization: `Bearer ${token}` };

    const user = {
      id,
      grantedAuthorities: grantedAuthorities ?? permissionsOf(role),
      accountIds: accountIds ?? [],
      physicianIds: physicianIds ?? [],
      allAccounts: (grantedAuthorities ?? permissionsOf(role)).includes('VIEW_ALL_ACCOUNTS'),
    } as any;
    const query = parseListQuery(requisitionsResource, QUERY);
    const scope = requisitionListScope(user, query);
    t0 = performance.now();
    const first = await (await fetch(url, { headers })).json();
    console.log(
      `[bench] first request (this process reads and decodes every row): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const pageIds: string[] = first.content.map((r: any) => r.id);

    // the same reads straight from the driver: what the API reads per request once its process holds the
    // rows (the change log since its last refresh, then the page's 15 requisitions by _id)
    const Changes = system.ctx.mongo.collection(LIST_ROW_CHANGES_COLLECTION);
    const since = new Date(Date.now() - 60_000);
    const bare = async () => {
      await Changes.find({ at: { $gte: since } }).toArray();
      await Promise.all(
        pageIds.map((id) => Requisition.findOne({ _id: id as any }, { projection: { outbox: 0 } })),
      );
    };
    // the former plan: page + count + one $group per facet on the full requisitions, in parallel
    const naive = async () => {
      const match = buildMatch(requisitionsResource, query, scope);
      await Promise.all([
        Requisition.find(match).sort({ updatedOn: -1 }).limit(15).toArray(),
        Requisition.countDocuments(match),
        ...requisitionsResource.facets!.map((def) => {
          const path = requisitionsResource.fields[def.field].path ?? def.field;
          const pipeline: any[] = [{ $match: buildMatch(requisitionsResource, query, scope, def.field) }];
          if (def.unwind) pipeline.push({ $unwind: `$${def.unwind}` });
          pipeline.push(
            { $group: { _id: `$${path}`, count: { $sum: 1 } } },
            { $sort: { count: -1, _id: 1 } },
          );
          return Requisition.aggregate(pipeline).toArray();
        }),
      ]);
    };
    const api = async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`list failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    // every request a question of its own (the same list created since a different day): no answer is reused,
    // each request scans the rows (checked with the process's scan counter)
    let nextDay = 1;
    const apiDistinct = async () => {
      const since = Date.now() - nextDay++ * 86_400_000;
      const filter = JSON.stringify({
        ...JSON.parse(QUERY.filter),
        createdOn: `between(${since},${Date.now()})`,
      });
      const res = await fetch(
        `${base}/portal/api/v1/testOrderForms?${new URLSearchParams({ ...QUERY, filter })}`,
        { headers },
      );
      if (!res.ok) throw new Error(`list failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    console.log(
      `[bench] query: Submitted, test status in (IN_PROGRESS, REPORT_COMPLETE), newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${demoLogin(role)}`,
    );
    // warm-up
    await run(Math.min(10, requests), Math.min(concurrency, 5), api);
    await run(Math.min(10, requests), Math.min(concurrency, 5), bare);
    console.log(`[bench] ${requests} requests at concurrency ${concurrency}`);
    const b = await run(requests, concurrency, bare);
    console.log(`[bench] bare driver queries : ${fmt(b)}`);
    const a = await run(requests, concurrency, api);
    console.log(`[bench] API (HTTP)          : ${fmt(a)}`);
    const scans = listScanStats.rowScans;
    const d = await run(Math.min(60, requests), concurrency, apiDistinct);
    console.log(
      `[bench] API, a question of its own each (created since a different day): ${Math.min(60, requests)} requests, ${listScanStats.rowScans - scans} scans: ${fmt(d)}`,
    );
    const naiveRequests = Number(arg('naive', '0'));
    if (naiveRequests > 0) {
      const n = await run(naiveRequests, Math.min(concurrency, naiveRequests), naive);
      console.log(`[bench] former plan (12 scans of the requisitions), ${naiveRequests} requests: ${fmt(n)}`);
    }
    console.log(
      `[bench] ratio API/bare: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x, throughput ${(b.rps / a.rps).toFixed(2)}x (target: within 1.5x)`,
    );
    console.log(
      `[bench] ratio API with no answer reused/bare: p50 ${(d.p50 / b.p50).toFixed(2)}x, p95 ${(d.p95 / b.p95).toFixed(2)}x`,
    );
  } finally {
    await system.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
