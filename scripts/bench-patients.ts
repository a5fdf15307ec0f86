/**
 * Benchmark: the Patients list (/patients, spec 2 section 2.6) as the console's Patients screen asks for it: the
 * rows (ra-data-simple-rest: `filter={}`, `range=[0,14]`, `sort=["updatedOn","DESC"]`: 15 a page, newest update
 * first) and, beside them, its Account / Provider / Hospital facets (`GET /patients/facets?filter={}&facets=true`,
 * labelled with names), both in parallel until both are in, through the real HTTP API at concurrency 10, against
 * the bare driver queries that fetch the same page, count and facets (the list engine's aggregates sent straight
 * from the driver, then the page's rows by `_id` and the facet values' names). `--one-request` also measures the
 * list with its facets in one request (`GET /patients?...&facets=...`) the way the other list benchmarks do
 * (compareListToBare).
 *
 * Seeds `--patients` patients (default 100,000) into its database when it holds fewer, spread over `--accounts`
 * accounts (default 150, plus the 2 demo accounts) of very different sizes (Zipf), 3-12 physicians and 1-4
 * hospital locations each (also seeded: the facets' names). Measured as each `--role` in turn (default
 * administrator, who sees every account, and npi, the demo provider, whom the bench gives two more accounts so it
 * sees three accounts' patients and its own).
 *
 *   export MONGO_URL='mongodb://oncotrf:oncotrf-local@127.0.0.1:27017/oncotrf_bench_patients?authSource=admin'
 *   npm run bench:patients -- [--patients 100000] [--accounts 150] [--requests 100] [--concurrency 10]
 *                             [--role administrator,npi] [--one-request] [--explain]
 *
 * The bare queries use the route's own match (data scope, merged duplicates and deleted patients left out).
 * `--explain` prints the patients collection's indexes and the plans of the screen's aggregates, of the page
 * query and of the count (`--explain-raw` also the whole plan of the rows' aggregate). Prints p50/p95 latency,
 * requests per second and the API/bare ratio (target within 1.5x). Refuses a database whose name lacks "bench"
 * (it writes patients and the npi user's associations) unless `--force`. Not a test: figures go to docs/benchmarks.md.
 */
import type { Connection } from 'mongoose';
import { buildMatch, listAggregates, listAnswer, planStages, parseListQuery } from '@onco/platform';
import { PATIENTS_PAGE_SIZE, type Role } from '@onco/domain';
import { NOT_MERGED, patientScope, patientsResource as R, and } from '@onco/reference';
import { demoLogin, seedDemo } from '@onco/server';
import {
  arg,
  benchConfig,
  compareListToBare,
  fmt,
  run,
  runBench,
  signInSession,
  startBenchServer,
  withoutCredentials,
} from './bench-support';

type Coll = ReturnType<Connection['collection']>;

const FACETS = R.facets!.map((f) => f.name);
/** What the Patients screen asks when it opens (console/src/components/ListPage.tsx, ra-data-simple-rest). */
const SCREEN_LIST = {
  filter: '{}',
  range: `[0,${PATIENTS_PAGE_SIZE - 1}]`,
  sort: '["updatedOn","DESC"]',
};
const SCREEN_FACETS = { filter: '{}', facets: 'true' };
/** The same list with its facets in one request (the other list benchmarks' form). */
const ONE_REQUEST = {
  sort: 'updatedOn,DESC',
  page: '0',
  size: String(PATIENTS_PAGE_SIZE),
  facets: FACETS.join(','),
};

/** A uniform number in [0, 1) from n and a salt (murmur3's finalizer): the same patient on every run. */
const u = (n: number, salt: number) => {
  let h = (n + Math.imul(salt, 0x9e3779b9)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
};
const pick = <T>(xs: readonly T[], n: number, salt: number) => xs[Math.floor(u(n, salt) * xs.length)];

const CITIES =
  `Portland Denver Austin Boise Tucson Omaha Madison Raleigh Richmond Albany Fresno Spokane Reno Tulsa Wichita
  Toledo Dayton Akron Lansing Duluth Fargo Billings Provo Eugene Salem Tacoma Mobile Macon Savannah Durham`.split(
    /\s+/,
  );
const KINDS = [
  'Oncology Associates',
  'Cancer Center',
  'Hematology & Oncology',
  'Cancer Institute',
  'Medical Group',
];
const FIRST = `Ada Ben Cora Dev Elena Farid Grace Hugo Ines Jon Kira Liam Maya
  Noah Olga Pablo Quinn Rosa Sami Tara Umar Vera Wade Xena Yuki Zane`.split(/\s+/);
const LAST = `Abbott Baker Chen Diaz Evans Fischer Garcia Hughes Ito Jensen Khan Lopez
  Meyer Nguyen Okafor Patel Quist Rossi Silva Tanaka Usman Varga Wong Young`.split(/\s+/);
const DIAGNOSES = ['Breast cancer', 'Colorectal cancer', 'Lung cancer', 'Melanoma', 'Prostate cancer', null];

/** An account of the spread, by rank (0 the largest), with its physicians and hospital locations. */
interface Party {
  id: string;
  name: string;
  physicians: string[];
  locations: string[];
}

/**
 * The accounts, physicians and hospital locations the patients point at: the demo's own (ranks 2 and 9, so the
 * demo provider's account is neither the largest nor a small one) and `count` bench accounts (`bench-acc-*`,
 * upserted: the same on every run).
 */
async function seedParties(mongo: Connection, count: number): Promise<Party[]> {
  const audit = { createdBy: 'bench', updatedBy: 'bench', version: 0, archived: false, deleted: false };
  const at = new Date('2025-01-01T00:00:00Z');
  const notBench = { _id: { $not: /^bench-/ } };
  const demoAccounts = await mongo.collection('accounts').find(notBench).sort({ accountId: 1 }).toArray();
  const demoPhysicians = await mongo.collection('physicians').find(notBench).sort({ userId: 1 }).toArray();
  const demoLocations = await mongo
    .collection('hospital_locations')
    .find(notBench)
    .sort({ hospitalLocationId: 1 })
    .toArray();
  const accounts: Record<string, unknown>[] = [];
  const physicians: Record<string, unknown>[] = [];
  const locations: Record<string, unknown>[] = [];
  const parties: Party[] = [];
  for (let a = 0; a < count; a++) {
    const id = `bench-acc-${a}`;
    const city = CITIES[a % CITIES.length];
    const name = `${city} ${KINDS[Math.floor(a / CITIES.length) % KINDS.length]}${a >= CITIES.length * KINDS.length ? ` ${a}` : ''}`;
    accounts.push({
      _id: id,
      accountId: `ACC-B${String(a).padStart(4, '0')}`,
      name,
      sfdcId: null,
      status: 'ACTIVE',
      address: { street: `${100 + a} Main Street`, city, state: 'WA', postalCode: '98000', country: 'US' },
      createdOn: at,
      updatedOn: at,
      ...audit,
    });
    const party: Party = { id, name, physicians: [], locations: [] };
    for (let k = 0; k < 3 + Math.floor(u(a, 11) * 10); k++) {
      const [firstName, lastName] = [pick(FIRST, a * 100 + k, 12), pick(LAST, a * 100 + k, 13)];
      party.physicians.push(`bench-phy-${a}-${k}`);
      physicians.push({
        _id: `bench-phy-${a}-${k}`,
        userId: String(1_900_000_000 + a * 100 + k),
        firstName,
        middleName: null,
        lastName,
        name: `Dr. ${firstName} ${lastName} (${a}-${k})`,
        phone: null,
        email: null,
        fax: null,
        status: 'ACTIVE',
        accountIds: [id],
        hospitalLocationIds: [],
        createdOn: at,
        updatedOn: at,
        ...audit,
      });
    }
    for (let k = 0; k < 1 + Math.floor(u(a, 14) * 4); k++) {
      party.locations.push(`bench-hl-${a}-${k}`);
      locations.push({
        _id: `bench-hl-${a}-${k}`,
        hospitalLocationId: `HL-B${String(a).padStart(4, '0')}-${k}`,
        name: `${name} - ${CITIES[(a + k + 7) % CITIES.length]} Clinic`,
        account: { id, name },
        address: null,
        createdOn: at,
        updatedOn: at,
        ...audit,
      });
    }
    parties.push(party);
  }
  const upsert = (docs: Record<string, unknown>[]) =>
    docs.map((d) => ({ replaceOne: { filter: { _id: d._id }, replacement: d, upsert: true } }));
  await mongo.collection('accounts').bulkWrite(upsert(accounts) as never[], { ordered: false });
  await mongo.collection('physicians').bulkWrite(upsert(physicians) as never[], { ordered: false });
  await mongo.collection('hospital_locations').bulkWrite(upsert(locations) as never[], { ordered: false });
  const demo = demoAccounts.map((acc) => ({
    id: String(acc._id),
    name: String(acc.name),
    physicians: demoPhysicians
      .filter((p) => (p.accountIds ?? []).includes(acc._id))
      .map((p) => String(p._id)),
    locations: demoLocations.filter((l) => l.account?.id === acc._id).map((l) => String(l._id)),
  }));
  demo.forEach((d, i) => parties.splice(Math.min(parties.length, [2, 9][i] ?? parties.length), 0, d));
  return parties.filter((p) => p.physicians.length > 0);
}

/** Zipf weights (s = 1) over the ranks, as a cumulative table for `rank(u)`. */
function zipf(count: number) {
  const cum: number[] = [];
  let sum = 0;
  for (let r = 0; r < count; r++) cum.push((sum += 1 / (r + 1)));
  return (x: number) => {
    const target = x * sum;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Patients as the reference service keeps them (its schema's fields: the list's columns, filters and facets,
 * the parties kept by its requisition consumer), `bench-pat-<n>`, in batches: a Zipf-sized primary account, one
 * in eight a second account; one or two physicians; none (no submitted requisition yet), one or two hospital
 * locations; updated over two years; 1 in 100 deleted (which the list leaves out).
 */
async function seedPatients(coll: Coll, parties: Party[], from: number, to: number) {
  const rank = zipf(parties.length);
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const start = performance.now();
  for (let i = from; i < to; i += 5000) {
    const docs = [];
    for (let n = i; n < Math.min(to, i + 5000); n++) {
      const first = parties[rank(u(n, 1))];
      const second = u(n, 2) < 0.125 ? parties[rank(u(n, 3))] : null;
      const other = second && second.id !== first.id ? second : null;
      const physicianIds = [pick(first.physicians, n, 4)];
      if (u(n, 5) < 0.3) physicianIds.push(pick((other ?? first).physicians, n, 6));
      const hospitalLocationIds: string[] = [];
      const l = u(n, 7);
      if (l >= 0.08 && first.locations.length) hospitalLocationIds.push(pick(first.locations, n, 8));
      if (l >= 0.85 && (other ?? first).locations.length)
        hospitalLocationIds.push(pick((other ?? first).locations, n, 9));
      const updatedOn = new Date(now - Math.floor(u(n, 10) * 730 * day));
      const createdOn = new Date(updatedOn.getTime() - Math.floor(u(n, 15) * 365 * day));
      const firstName = pick(FIRST, n, 16);
      const lastName = pick(LAST, n, 17);
      const requisitions = hospitalLocationIds.length ? 1 + Math.floor(u(n, 18) * 3) : 0;
      docs.push({
        _id: `bench-pat-${n}`,
        userId: `b0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
        firstName,
        middleName: null,
        lastName,
        name: `${firstName} ${lastName}`,
        race: null,
        ethnicity: null,
        address: {
          street: `${n % 9000} Elm Street`,
          city: pick(CITIES, n, 19),
          state: 'WA',
          postalCode: '98101',
        },
        phone: `206555${String(n % 10000).padStart(4, '0')}`,
        fax: null,
        email: null,
        mrn: `MRN-${n}`,
        dateOfBirth: `19${40 + Math.floor(u(n, 20) * 60)}-0${1 + (n % 9)}-1${n % 10}`,
        birthSex: u(n, 21) < 0.5 ? 'FEMALE' : 'MALE',
        trialName: null,
        studyPatientId: null,
        diagnosis: pick(DIAGNOSES, n, 22),
        accountIds: other ? [first.id, other.id] : [first.id],
        physicianIds: [...new Set(physicianIds)],
        hospitalLocationIds: [...new Set(hospitalLocationIds)],
        numberHistory: [],
        billingsVersion: 0,
        mergedInto: null,
        mergeId: null,
        requisitionIds: Array.from({ length: requisitions }, (_, k) => `bench-req-${n}-${k}`),
        createdOn,
        createdBy: 'bench',
        updatedOn,
        updatedBy: 'bench',
        version: 0,
        archived: false,
        deleted: u(n, 23) < 0.01,
      });
    }
    await coll.insertMany(docs as never[], { ordered: false });
    const done = Math.min(to, i + 5000);
    if (((i - from) / 5000) % 4 === 3 || done === to) {
      const secs = (performance.now() - start) / 1000;
      console.log(
        `[bench] seeded ${done} patients (${Math.round((done - from) / secs)}/s, ${secs.toFixed(0)} s)`,
      );
    }
  }
}

/** The demo provider (npi) sees its own account and two more: user_associations rows, upserted. */
async function widenProvider(mongo: Connection, parties: Party[]) {
  const user = await mongo.collection('users').findOne({ loginId: demoLogin('ROLE_NPI') });
  if (!user) return;
  const extra = [parties[25], parties[60]].filter(Boolean);
  for (const [k, p] of extra.entries()) {
    await mongo.collection('user_associations').replaceOne(
      { _id: `bench-npi-account-${k}` as never },
      {
        ownerId: user._id,
        type: 'ACCOUNT',
        account: { id: p.id, name: p.name },
        physician: null,
        createdOn: new Date(),
        createdBy: 'bench',
        updatedOn: new Date(),
        updatedBy: 'bench',
        version: 0,
        archived: false,
        deleted: false,
      },
      { upsert: true },
    );
  }
}

/**
 * The Patients screen as one role: the rows and the facets requests in parallel (API) against the bare driver
 * queries fetching the same page, count and labelled facets (also in parallel), checked to answer the same.
 */
async function measureScreen(o: {
  base: string;
  mongo: Connection;
  role: Role;
  password: string;
  requests: number;
  concurrency: number;
  explain: boolean;
  oneRequest: boolean;
}) {
  const coll = o.mongo.collection('patients');
  const { headers, user } = await signInSession(o.base, o.role, o.password);
  const scope = and(patientScope(user), NOT_MERGED); // as the route: the data scope, merged duplicates left out
  const listQuery = parseListQuery(R, SCREEN_LIST);
  const facetsQuery = parseListQuery(R, SCREEN_FACETS);
  const listUrl = `${o.base}/portal/api/v1/patients?${new URLSearchParams(SCREEN_LIST)}`;
  const facetsUrl = `${o.base}/portal/api/v1/patients/facets?${new URLSearchParams(SCREEN_FACETS)}`;

  const rows = listAggregates(R, listQuery, scope, [], true);
  const counts = listAggregates(R, facetsQuery, scope, facetsQuery.facets, false);
  const answer = async (p: typeof rows) =>
    listAnswer(
      p.defs,
      p.aggregates,
      await Promise.all(p.aggregates.map((a) => coll.aggregate(a.pipeline).toArray())),
    );
  const NAMES: Record<string, string> = {
    account_facet: 'accounts',
    physician_facet: 'physicians',
    hospital_location_facet: 'hospital_locations',
  };
  const bare = async () => {
    const [page, facets] = await Promise.all([
      answer(rows).then(async (a) => {
        await coll.find({ _id: { $in: a.pageIds as never[] } }, { projection: { outbox: 0 } }).toArray();
        return a;
      }),
      answer(counts).then((a) =>
        Promise.all(
          a.facets.map(async (all) => {
            // the Account facet lists only the user's own accounts (docs/decisions.md "Patients")
            const f =
              all.name === 'account_facet' && !user.allAccounts
                ? { ...all, items: all.items.filter((i) => user.accountIds.includes(String(i.value))) }
                : all;
            const ids = f.items.map((i) => i.value);
            const named = ids.length
              ? await o.mongo
                  .collection(NAMES[f.name])
                  .find({ _id: { $in: ids as never[] } }, { projection: { name: 1 } })
                  .toArray()
              : [];
            const byId = new Map(named.map((d) => [String(d._id), d.name]));
            return {
              name: f.name,
              items: f.items.map((i) => ({ ...i, label: byId.get(String(i.value)) ?? String(i.value) })),
            };
          }),
        ),
      ),
    ]);
    return { total: page.total, pageIds: page.pageIds, facets };
  };
  const get = async (url: string) => {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url} failed: ${res.status} ${await res.text()}`);
    return { range: res.headers.get('content-range'), body: (await res.json()) as any };
  };
  const api = () => Promise.all([get(listUrl), get(facetsUrl)]);

  // the same answers first: total (Content-Range), the page's ids in order, every facet's items and labels
  const [[list, facets], mine] = await Promise.all([api(), bare()]);
  const total = Number(list.range?.split('/')[1]);
  const flat = (fs: Array<{ name: string; items: Array<Record<string, unknown>> }>) =>
    fs.flatMap((f) => f.items.map((i) => `${f.name}:${i.value}:${i.count}:${i.label}`)).join('|');
  const sameFacets = flat(facets.body.content) === flat(mine.facets);
  if (!sameFacets) {
    const a = flat(facets.body.content).split('|');
    const b = new Set(flat(mine.facets).split('|'));
    console.log(
      `[bench] facet items only in the API: ${a
        .filter((x) => !b.has(x))
        .slice(0, 5)
        .join(', ')}`,
    );
    const aa = new Set(a);
    console.log(
      `[bench] facet items only in the bare reads: ${[...b]
        .filter((x) => !aa.has(x))
        .slice(0, 5)
        .join(', ')}`,
    );
  }
  if (total !== mine.total || list.body.map((r: any) => r.id).join() !== mine.pageIds.join() || !sameFacets)
    throw new Error(
      `the bare queries differ from the API: ${mine.total} vs ${total} rows${sameFacets ? '' : ', facets differ'}`,
    );
  const items = facets.body.content.map((f: any) => `${f.name} ${f.items.length}`).join(', ');
  console.log(
    `[bench] as ${demoLogin(o.role)} (${user.allAccounts ? 'every account' : `accounts ${user.accountIds.length}, physicians ${user.physicianIds.length}`}): ${total} patients matching; facet values: ${items}`,
  );

  if (o.explain) {
    const match = buildMatch(R, listQuery, scope);
    console.log(`[bench] explain, match: ${JSON.stringify(match)}`);
    const page = await coll
      .find(match)
      .sort({ updatedOn: -1, _id: -1 })
      .limit(PATIENTS_PAGE_SIZE)
      .explain('executionStats');
    console.log(
      `[bench] explain, the page query (find): ${planStages(page.queryPlanner ?? page, { withIndex: true }).join(' > ')}`,
    );
    const count = await coll.aggregate([{ $match: match }, { $count: 'n' }]).explain('queryPlanner');
    console.log(`[bench] explain, the count alone: ${planStages(count, { withIndex: true }).join(' > ')}`);
    for (const [what, p] of [
      ['rows request', rows],
      ['facets request', counts],
    ] as const) {
      for (const a of p.aggregates) {
        const plan = await coll.aggregate(a.pipeline).explain('queryPlanner');
        const stages = planStages(plan, { withIndex: true }).filter((s) =>
          /SCAN|FETCH|INDEX|AND|OR|SORT/.test(s),
        );
        console.log(`[bench] explain, ${what}, aggregate ${a.branch ?? '$facet'}: ${stages.join(' > ')}`);
      }
    }
    if (process.argv.includes('--explain-raw')) {
      const plan = await coll.aggregate(rows.aggregates[0].pipeline).explain('queryPlanner');
      console.log(JSON.stringify(plan, null, 1));
    }
  }

  console.log(
    `[bench] the Patients screen: rows (${PATIENTS_PAGE_SIZE}, newest update first: ${rows.aggregates.length} aggregate) and ${FACETS.length} facets (${counts.aggregates.length} aggregate + names), in parallel`,
  );
  await api();
  await bare();
  const a = await run(o.requests, o.concurrency, async () => void (await api()));
  console.log(`[bench] API, concurrency ${o.concurrency}, ${o.requests} screens: ${fmt(a)}`);
  const b = await run(o.requests, o.concurrency, async () => void (await bare()));
  console.log(`[bench] bare driver queries, same page/count/facets: ${fmt(b)}`);
  console.log(
    `[bench] ratio API/bare: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x (target within 1.5x)`,
  );

  if (o.oneRequest) {
    const parsed = parseListQuery(R, ONE_REQUEST);
    console.log('[bench] the list with its facets in one request (bare: without the facet names)');
    await compareListToBare({
      url: `${o.base}/portal/api/v1/patients?${new URLSearchParams(ONE_REQUEST)}`,
      headers,
      coll: coll as never,
      resource: R,
      query: parsed,
      scope,
      requests: o.requests,
      concurrency: o.concurrency,
      describe: (first, n) =>
        `query: no filter, newest first, ${PATIENTS_PAGE_SIZE} a page, ${FACETS.length} facets; ${first.totalElements} matching; as ${demoLogin(o.role)}; ${n} aggregates a request`,
      target: 'target within 1.5x',
    });
  }
}

async function main() {
  const patients = Number(arg('patients', '100000'));
  const accountCount = Number(arg('accounts', '150'));
  const requests = Number(arg('requests', '100'));
  const concurrency = Number(arg('concurrency', '10'));
  const roles = arg('role', 'administrator,npi')
    .split(',')
    .map((r) => `ROLE_${r.trim().toUpperCase()}` as Role);
  const config = benchConfig();
  const dbName = new URL(config.MONGO_URL).pathname.slice(1);
  if (!dbName.includes('bench') && !process.argv.includes('--force')) {
    console.error(
      `[bench] refusing to seed patients into "${dbName}": set MONGO_URL to a database of its own (e.g. …/oncotrf_bench_patients) or pass --force`,
    );
    process.exit(2);
  }

  const { system, base } = await startBenchServer(config);
  try {
    await seedDemo(system.ctx).catch(() => undefined); // the demo users and reference data (idempotent)
    const mongo = system.ctx.mongo;
    const parties = await seedParties(mongo, accountCount);
    await widenProvider(mongo, parties);
    const coll = mongo.collection('patients');
    const have = await coll.countDocuments({ _id: { $regex: '^bench-pat-' } } as never);
    if (have < patients) await seedPatients(coll, parties, have, patients);
    const total = await coll.countDocuments({});
    console.log(
      `[bench] database ${withoutCredentials(config.MONGO_URL)}: ${total} patients over ${parties.length} accounts`,
    );
    if (process.argv.includes('--explain')) {
      const indexes = await coll.listIndexes().toArray();
      console.log(`[bench] patients indexes: ${indexes.map((i) => JSON.stringify(i.key)).join(', ')}`);
    }
    for (const role of roles) {
      await measureScreen({
        base,
        mongo,
        role,
        password: config.DEMO_PASSWORD,
        requests,
        concurrency,
        explain: process.argv.includes('--explain'),
        oneRequest: process.argv.includes('--one-request'),
      });
    }
  } finally {
    await system.close();
  }
}

runBench(main);
