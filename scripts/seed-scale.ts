/**
 * A large, realistic data set for benchmarks: `npm run seed:scale -- --requisitions 100000`.
 * Uses the demo reference data (seeded first when the database is empty) and inserts requisitions with their
 * test orders in batches (insertMany, `--batch 2000`), printing progress and the rate. Rows are marked
 * `scaleSeed: true`; `--reset` removes earlier ones. Into its own database:
 *   MONGO_URL=mongodb://.../oncotrf_bench?authSource=admin npm run seed:scale -- --requisitions 100000
 * `--only-tests` inserts the test orders alone (the tests list benchmark: 250,000 requisitions' worth is ~300,000
 * test orders, without the time the requisitions and their indexes take).
 */
import { randomUUID } from 'node:crypto';
import { ConfigError, connectMongo, createLogger, loadConfig, type PlatformContext } from '@onco/platform';
import { requisitionModels } from '@onco/requisitions';
import { labModels } from '@onco/lab';
import { seedDemo } from '@onco/server';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const weighted = <T>(pairs: Array<[T, number]>): T => {
  let r = rand() * pairs.reduce((n, [, w]) => n + w, 0);
  for (const [v, w] of pairs) if ((r -= w) < 0) return v;
  return pairs[0][0];
};

async function main() {
  let config;
  try {
    config = loadConfig({ ...process.env, DEMO_MODE: 'true' });
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const total = Number(arg('requisitions', '1000'));
  if (!Number.isInteger(total) || total < 1) {
    console.error('--requisitions must be a positive integer');
    process.exit(2);
  }
  const batch = Number(arg('batch', '2000'));
  const onlyTests = process.argv.includes('--only-tests');
  const logger = createLogger('warn');
  const mongo = await connectMongo(config.MONGO_URL);
  await seedDemo({ config, logger, mongo } as unknown as PlatformContext);
  const { Requisition } = requisitionModels(mongo);
  const { TestOrder } = labModels(mongo);
  await Requisition.init();
  await TestOrder.init();
  if (process.argv.includes('--reset')) {
    await Requisition.collection.deleteMany({ scaleSeed: true });
    await TestOrder.collection.deleteMany({ scaleSeed: true });
  }

  const accounts = await mongo.collection('accounts').find({}).toArray();
  const locations = await mongo
    .collection('hospital_locations')
    .find({})
    .toArray()
    .catch(() => []);
  const physicians = await mongo.collection('physicians').find({}).toArray();
  const patients = await mongo.collection('patients').find({}).toArray();
  if (!accounts.length || !physicians.length || !patients.length)
    throw new Error('reference data missing after seeding');

  const start = Date.now();
  const now = Date.now();
  const twoYears = 2 * 365 * 24 * 3600 * 1000;
  const diagnoses: Array<[string, string]> = [
    ['BREAST', 'C50.911'],
    ['COLORECTAL', 'C18.9'],
    ['LUNG', 'C34.90'],
    ['MELANOMA', 'C43.9'],
    ['PROSTATE', 'C61'],
    ['OTHER', 'C25.9'],
  ];
  let done = 0;
  let testCount = 0;
  const base = 500000;
  while (done < total) {
    const n = Math.min(batch, total - done);
    const reqs: any[] = [];
    const tests: any[] = [];
    for (let i = 0; i < n; i++) {
      const seq = base + done + i;
      const account = pick(accounts);
      const physician =
        physicians.find((p: any) => (p.accountIds ?? []).includes(account._id)) ?? pick(physicians);
      const patient = pick(patients);
      const location = locations.find((l: any) => l.account?.id === account._id) ?? null;
      const status = weighted<'DRAFT' | 'SUBMITTED'>([
        ['SUBMITTED', 8],
        ['DRAFT', 2],
      ]);
      const created = new Date(now - Math.floor(rand() * twoYears));
      const updated = new Date(Math.min(now, created.getTime() + Math.floor(rand() * 60 * 24 * 3600 * 1000)));
      const [diagnosis, icd] = pick(diagnoses);
      const kind = weighted<'dx' | 'pdx' | 'both'>([
        ['dx', 5],
        ['pdx', 3],
        ['both', 2],
      ]);
      const orderType = kind === 'pdx' && rand() < 0.5 ? 'SUBSEQUENT_ORDER' : 'INITIAL_ORDER';
      const id = `scale-${randomUUID()}`;
      const testRequisitionId = status === 'SUBMITTED' ? `TRF-${String(seq).padStart(7, '0')}` : null;
      const types =
        kind === 'both' ? ['NEXT_DX', 'NEXT_PERSONAL_DX'] : [kind === 'dx' ? 'NEXT_DX' : 'NEXT_PERSONAL_DX'];
      const summaries = types.map((testType, k) => {
        const testStatus =
          status === 'DRAFT'
            ? 'TEST_SELECTED'
            : weighted([
                ['TEST_ORDERED', 3],
                ['IN_PROGRESS', 4],
                ['REPORT_COMPLETE', 5],
                ['REPORT_AMENDED', 1],
                ['CANCELLED', 1],
              ]);
        const testId = randomUUID();
        const testOrderId = status === 'SUBMITTED' ? `${testRequisitionId}-${k + 1}` : null;
        tests.push({
          _id: testId,
          testOrderId,
          testId: testOrderId,
          testType,
          orderType: testType === 'NEXT_DX' ? 'INITIAL_ORDER' : orderType,
          status: testStatus,
          dueOn: status === 'SUBMITTED' ? new Date(created.getTime() + 21 * 24 * 3600 * 1000) : null,
          testDuration: null,
          limsProjectId: null,
          testHistories: [{ status: testStatus, createdOn: updated, testResult: null }],
          testResult: null,
          report: null,
          testOrderForm: {
            id,
            testRequisitionId,
            account: { id: account._id, name: account.name },
            physician: { id: physician._id, name: physician.name },
            hospitalLocation: location ? { id: location._id, name: location.name } : null,
            patient: { id: patient._id, name: patient.name, userId: patient.userId },
            reviewStatus: null,
          },
          outbox: [],
          createdOn: created,
          createdBy: 'seed:scale',
          updatedOn: updated,
          updatedBy: 'seed:scale',
          version: 0,
          archived: false,
          deleted: false,
          scaleSeed: true,
        });
        return {
          id: testId,
          testOrderId,
          testType,
          orderType: testType === 'NEXT_DX' ? 'INITIAL_ORDER' : orderType,
          status: testStatus,
        };
      });
      reqs.push({
        _id: id,
        testRequisitionId,
        status,
        clinicalReviewStatus:
          status === 'SUBMITTED'
            ? weighted([
                ['REVIEW_COMPLETE', 6],
                ['NEEDS_REVIEW', 2],
                ['IN_PROGRESS', 1],
                ['AWAITING_PATH_REPORT', 1],
              ])
            : null,
        isNYState: false,
        patient: {
          id: patient._id,
          userId: patient.userId,
          firstName: patient.firstName,
          lastName: patient.lastName,
          name: patient.name,
          dateOfBirth: patient.dateOfBirth,
          birthSex: patient.birthSex,
          mrn: patient.mrn,
        },
        physician: {
          id: physician._id,
          userId: physician.userId,
          firstName: physician.firstName,
          lastName: physician.lastName,
          name: physician.name,
        },
        account: { id: account._id, name: account.name, accountId: account.accountId },
        hospitalLocation: location
          ? { id: location._id, name: location.name, address: location.address }
          : null,
        orderInformation: {
          nextDx: types.includes('NEXT_DX'),
          nextPersonalDx: types.includes('NEXT_PERSONAL_DX'),
          orderType,
        },
        testOrders: summaries,
        tumorSpecimen: { diagnosis, icd10Codes: icd, stage: pick(['I', 'II', 'III', 'IV']) },
        normalSpecimen: { specimenType: 'BLOOD' },
        billings: [
          {
            id: randomUUID(),
            billingType: pick(['INSURANCE', 'MEDICARE', 'SELF', 'FACILITY']),
            preference: 'PRIMARY',
          },
        ],
        attachments: [],
        approvals:
          status === 'SUBMITTED'
            ? [{ approvedBy: { id: physician._id, name: physician.name }, createdOn: created }]
            : [],
        sampleStatuses:
          status === 'SUBMITTED'
            ? [
                weighted([
                  ['PROCEED', 8],
                  ['ON_HOLD', 1],
                  ['CANCELLED', 1],
                ]),
              ]
            : [],
        billingReview: {
          status: status === 'SUBMITTED' ? pick(['NEEDS_REVIEW', 'REVIEW_COMPLETE', 'AWAITING_INFO']) : null,
        },
        limsProjectIds: [],
        reports: [],
        outbox: [],
        createdOn: created,
        createdBy: 'seed:scale',
        updatedOn: updated,
        updatedBy: 'seed:scale',
        version: 0,
        archived: false,
        deleted: false,
        scaleSeed: true,
      });
    }
    if (!onlyTests) await Requisition.collection.insertMany(reqs, { ordered: false });
    await TestOrder.collection.insertMany(tests, { ordered: false });
    done += n;
    const secs = (Date.now() - start) / 1000;
    const eta = Math.round(((total - done) * secs) / done);
    testCount += tests.length;
    process.stdout.write(
      `\r[seed:scale] ${done}/${total} requisitions, ${testCount} test orders (${Math.round(done / secs)}/s, ${Math.round(secs)} s, ~${eta} s to go)   `,
    );
  }
  process.stdout.write('\n');
  const secs = (Date.now() - start) / 1000;
  console.log(
    `[seed:scale] done: ${total} requisitions${onlyTests ? "' test orders only" : ''} (${testCount} test orders) in ${secs.toFixed(1)} s, ${Math.round(total / secs)} requisitions/s`,
  );
  await mongo.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
