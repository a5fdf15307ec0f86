/**
 * Benchmark: the Tests list (/tests, spec 2 section 2.4) with its three facets (test_status_facet,
 * test_type_facet, order_type_facet), the default filter (status !in(TEST_SELECTED)), newest first, 15 a page,
 * through the real HTTP API at concurrency 10, against the bare driver queries that fetch the same page, count
 * and facets (the list engine's aggregates sent straight from the driver, then the page's rows by `_id`).
 *
 *   export MONGO_URL='mongodb://oncotrf:oncotrf-local@127.0.0.1:27017/oncotrf_bench_tests?authSource=admin'
 *   npm run seed:scale -- --requisitions 250000 --only-tests     # once: ~300,000 test orders
 *   npm run bench:tests -- [--requests 100] [--concurrency 10] [--role administrator|npi] [--status IN_PROGRESS]
 *
 * Prints p50/p95 latency, requests per second and the API/bare ratio (targets: p95 under 300 ms, within 1.5x).
 * Not a test: figures go to the README.
 */
import pino from 'pino';
import { listAggregates, listAnswer, loadConfig, parseListQuery, type SessionUser } from '@onco/platform';
import { permissionsOf, type Role } from '@onco/domain';
import { testOrdersResource as R, testOrdersScope } from '../services/lab/src/routes/test-orders';
import { buildSystem } from '../services/server/src/system';
import { demoLogin } from '../services/server/src/seed';
import { arg, fmt, run } from './bench-support';

const FACETS = R.facets!.map((f) => f.name);

async function main() {
  const requests = Number(arg('requests', '100'));
  const concurrency = Number(arg('concurrency', '10'));
  const role = `ROLE_${arg('role', 'administrator').toUpperCase()}` as Role;
  const status = arg('status', '');
  const config = loadConfig({
    ...process.env,
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'true',
    PORT: '0',
  });
  const query = {
    filter: JSON.stringify(status ? { status: `eq(${status})` } : { status: '!in(TEST_SELECTED)' }),
    sort: 'updatedOn,DESC',
    page: '0',
    size: '15',
    facets: FACETS.join(','),
  };

  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.listen({ port: 0, host: '127.0.0.1' });
  const address = system.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const coll = system.ctx.mongo.collection('test_orders');
    const total = await coll.countDocuments({});
    console.log(`[bench] database ${config.MONGO_URL.replace(/\/\/[^@]*@/, '//')}: ${total} test orders`);
    if (total < 1000)
      console.log('[bench] hint: npm run seed:scale -- --requisitions 250000 --only-tests first');

    const signIn = await fetch(`${base}/uam/api/v1/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: Buffer.from(demoLogin(role)).toString('base64'),
        password: Buffer.from(config.DEMO_PASSWORD).toString('base64'),
      }),
    });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const { token } = (await signIn.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const url = `${base}/oms/api/v1/testOrders?${new URLSearchParams(query)}`;
    const session = (await (await fetch(`${base}/uam/api/v1/session`, { headers })).json()) as any;
    const user = {
      ...session,
      allAccounts: (session.grantedAuthorities ?? permissionsOf(role)).includes('VIEW_ALL_ACCOUNTS'),
    } as SessionUser;
    const parsed = parseListQuery(R, query);
    const scope = testOrdersScope(user, parsed);
    const first = await (await fetch(url, { headers })).json();

    const { defs, aggregates } = listAggregates(R, parsed, scope, parsed.facets, true);
    const answersOf = () => Promise.all(aggregates.map((a) => coll.aggregate(a.pipeline).toArray()));
    {
      const got = listAnswer(defs, aggregates, await answersOf());
      if (
        got.total !== first.totalElements ||
        got.pageIds.join() !== first.content.map((r: any) => r.id).join()
      )
        throw new Error(`the bare queries differ from the API: ${got.total} vs ${first.totalElements} rows`);
    }
    const bare = async () => {
      const { pageIds } = listAnswer(defs, aggregates, await answersOf());
      await coll.find({ _id: { $in: pageIds as any[] } }, { projection: { outbox: 0 } }).toArray();
    };
    const api = async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`list failed: ${res.status} ${await res.text()}`);
      await res.json();
    };
    console.log(
      `[bench] query: ${query.filter}, newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${demoLogin(role)}; ${aggregates.length} aggregates a request`,
    );
    await api();
    await bare();
    const a = await run(requests, concurrency, api);
    console.log(`[bench] API, concurrency ${concurrency}, ${requests} requests: ${fmt(a)}`);
    const b = await run(requests, concurrency, bare);
    console.log(`[bench] bare driver queries, same page/count/facets: ${fmt(b)}`);
    console.log(
      `[bench] ratio API/bare: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x (target within 1.5x; p95 target under 300 ms)`,
    );
  } finally {
    await system.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
