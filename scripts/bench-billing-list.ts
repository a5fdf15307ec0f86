/**
 * Benchmark: the billing cases list (/billing, spec 3 sections 2.9 and 7.3) with its five facets
 * (test_type_facet, test_status_facet, review_status_facet, case_status_facet, assignee_name_facet), newest first,
 * 15 a page, through the real HTTP API at concurrency 10, against the bare driver queries that fetch the same
 * page, count and facets (the list engine's aggregates sent straight from the driver, then the page's rows by
 * `_id`). Seeds `--cases` billing cases (default 300,000) into its database when it holds fewer.
 *
 *   export MONGO_URL='mongodb://oncotrf:oncotrf-local@127.0.0.1:27017/oncotrf_bench_billing?authSource=admin'
 *   npm run bench:billing-list -- [--cases 300000] [--requests 100] [--concurrency 10] [--status RETRY_FAILED]
 *
 * Prints p50/p95 latency, requests per second and the API/bare ratio (target within 1.5x). Not a test.
 */
import { BILLING_CASE_STATUSES, BILLING_REVIEW_STATUSES, TEST_STATUSES } from '@onco/domain';
import { billingCasesResource as R, billingScope } from '@onco/billing';
import { seedDemo } from '@onco/server';
import { arg, benchList, runBench } from './bench-support';

const FACETS = R.facets!.map((f) => f.name);
const ASSIGNEES = ['Bea Biller', 'Carl Coder', 'Dana Claims', 'Eli Payor', null];
/** A spread of values that does not follow n's residues (a multiplicative hash of n and a salt). */
const pick = <T>(xs: readonly T[], n: number, salt = 0) =>
  xs[(Math.imul(n + salt * 7919, 2654435761) >>> 0) % xs.length];

/** Billing cases as the consumers make them (fields the list shows, filters and facets), in batches. */
async function seed(coll: ReturnType<import('mongoose').Connection['collection']>, from: number, to: number) {
  const now = Date.now();
  for (let i = from; i < to; i += 5000) {
    const docs = [];
    for (let n = i; n < Math.min(to, i + 5000); n++) {
      const assignee = pick(ASSIGNEES, n, 1);
      const at = new Date(now - n * 60_000);
      docs.push({
        _id: `bench-case-${n}`,
        testId: `NDX-${String(n).padStart(7, '0')}`,
        testOrderId: `bench-to-${n}`,
        testRequisitionId: `TRF-${String(n >> 1).padStart(7, '0')}`,
        testOrderFormId: `bench-tof-${n >> 1}`,
        accountName: `Account ${n % 40}`,
        account: { id: `acc-${n % 40}`, name: `Account ${n % 40}` },
        physician: { id: `phy-${n % 400}`, name: `Dr. Provider ${n % 400}` },
        patient: { id: `pat-${n >> 1}`, name: `Patient ${n >> 1}` },
        testType: n % 3 ? 'NEXT_PERSONAL_DX' : 'NEXT_DX',
        orderType: n % 4 ? 'SUBSEQUENT_ORDER' : 'INITIAL_ORDER',
        timePoint: n % 4 ? `TP${n % 12}` : null,
        billingCode: n % 5 ? `0340U` : null,
        testStatus: pick(TEST_STATUSES, n, 2),
        reviewStatus: pick(BILLING_REVIEW_STATUSES, n, 3),
        caseStatus: pick(BILLING_CASE_STATUSES, n, 4),
        caseQualifiedDate: n % 2 ? at : null,
        assignee: assignee ? { id: `bs-${assignee}`, name: assignee } : null,
        errorDetails: null,
        caseHistory: [{ id: `h-${n}`, createdOn: at, status: 'NOT_SUBMITTED', errorDetails: null }],
        claimInfo: null,
        submission: null,
        outbox: [],
        createdOn: at,
        createdBy: 'system',
        updatedOn: at,
        updatedBy: 'system',
        version: 1,
        archived: false,
        deleted: false,
      });
    }
    await coll.insertMany(docs as never[], { ordered: false });
    if ((i / 5000) % 10 === 0) console.log(`[bench] seeded ${Math.min(to, i + 5000)} billing cases`);
  }
}

async function main() {
  const cases = Number(arg('cases', '300000'));
  const status = arg('status', '');
  const query: Record<string, string> = {
    sort: 'updatedOn,DESC',
    page: '0',
    size: '15',
    facets: FACETS.join(','),
    ...(status ? { filter: JSON.stringify({ caseStatus: `in(${status})` }) } : {}),
  };
  await benchList({
    collection: 'billing_cases',
    noun: 'billing cases',
    prepare: async (system, coll) => {
      await seedDemo(system.ctx).catch(() => undefined); // the demo users (idempotent)
      const have = await coll.countDocuments({ _id: { $regex: '^bench-case-' } } as never);
      if (have < cases) await seed(coll, have, cases);
    },
    path: '/bis/api/v1/billingCases',
    query,
    resource: R,
    scope: (user) => billingScope(user),
    describe: (first, n, login) =>
      `query: ${query.filter ?? 'no filter'}, newest first, 15 a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${login}; ${n} aggregates a request`,
    target: 'target within 1.5x',
  });
}

runBench(main);
