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
 * Not a test: figures go to docs/benchmarks.md.
 */
import pino from 'pino';
import { loadConfig, parseListQuery, type SessionUser } from '@onco/platform';
import { permissionsOf, type Role } from '@onco/domain';
import { testOrdersResource as R, testOrdersScope } from '@onco/lab';
import { buildSystem, demoLogin } from '@onco/server';
import { arg, compareListToBare } from './bench-support';

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
    await compareListToBare({
      url,
      headers,
      coll: coll as never,
      resource: R,
      query: parsed,
      scope: testOrdersScope(user, parsed),
      requests,
      concurrency,
      describe: (first, n) =>
        `query: ${query.filter}, newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${demoLogin(role)}; ${n} aggregates a request`,
      target: 'target within 1.5x; p95 target under 300 ms',
      orderedDb: system.ctx.mongo.db!.databaseName,
    });
  } finally {
    await system.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
