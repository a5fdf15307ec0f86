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
import { testOrdersResource as R, testOrdersScope } from '@onco/lab';
import { arg, benchList, runBench } from './bench-support';

const FACETS = R.facets!.map((f) => f.name);

async function main() {
  const status = arg('status', '');
  const query = {
    filter: JSON.stringify(status ? { status: `eq(${status})` } : { status: '!in(TEST_SELECTED)' }),
    sort: 'updatedOn,DESC',
    page: '0',
    size: '15',
    facets: FACETS.join(','),
  };
  await benchList({
    collection: 'test_orders',
    noun: 'test orders',
    counted: (total) => {
      if (total < 1000)
        console.log('[bench] hint: npm run seed:scale -- --requisitions 250000 --only-tests first');
    },
    path: '/oms/api/v1/testOrders',
    query,
    resource: R,
    scope: (user, parsed) => testOrdersScope(user, parsed),
    describe: (first, n, login) =>
      `query: ${query.filter}, newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${login}; ${n} aggregates a request`,
    target: 'target within 1.5x; p95 target under 300 ms',
    ordered: true,
  });
}

runBench(main);
