/**
 * Benchmark: Merge Patients of a patient with 500 submitted requisitions (and their 500 lab test orders) into
 * another, everything running in this process as the server runs it (HTTP API on a real port, the outbox relay,
 * every Kafka consumer, the store, Redis), on a database and topic prefix of its own (dropped at the end).
 *
 *   npm run bench:patient-merge -- [--requisitions 500] [--requests 40] [--period 500]
 *
 * Prints: the time from POST mergePatients to the merge DONE (every requisition moved, each with its
 * requisition-changed event, counted back by the reference service), the time until the lab's test orders all
 * name the target, and the p50/p95 of two list requests (the patients list and the orders list, 15 a page)
 * issued at rest and while the merge runs, each every 500 ms (open loop). Then the same for the undo. Not a test: figures go to
 * docs/decisions.md "Patient merge" and docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { createReferenceModule, referenceModels } from '@onco/reference';
import { requisitionModels } from '@onco/requisitions';
import { labModels } from '@onco/lab';
import { createTestSystem, createUser, login } from '@onco/testing';
import { arg, fmt, stats, type RunFigures } from './bench-support';

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const count = Number(arg('requisitions', '500'));
  const requests = Number(arg('requests', '40'));
  const periodMs = Number(arg('period', '500'));
  const sys = await createTestSystem({ WORKERS: 'true', LOG_LEVEL: 'warn' });
  try {
    await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
    const ref = referenceModels(sys.ctx.mongo);
    const { Requisition } = requisitionModels(sys.ctx.mongo);
    const { TestOrder } = labModels(sys.ctx.mongo);
    const account = (await ref.Account.findOne({}).lean())!;
    const physician = (await ref.Physician.findOne({}).lean())!;
    const [target, source] = ['target', 'source'].map((k, i) => ({
      _id: `bench-${k}-${sys.suffix}`,
      userId: `PAT-99${String(i).padStart(4, '0')}`,
      firstName: 'Bench',
      lastName: k === 'target' ? 'Primary' : 'Duplicate',
      name: `Bench ${k === 'target' ? 'Primary' : 'Duplicate'}`,
      dateOfBirth: '1960-01-01',
      birthSex: 'FEMALE',
      accountIds: [account._id],
      physicianIds: [physician._id],
    }));
    await ref.Patient.create([target, source] as any[]);

    // 500 submitted requisitions of the duplicate (as seed-scale writes them), each with its lab test order
    const now = Date.now();
    const reqs: any[] = [];
    const tests: any[] = [];
    for (let i = 0; i < count; i++) {
      const id = `bench-merge-${randomUUID()}`;
      const testId = randomUUID();
      const trf = `TRF-9${String(i).padStart(6, '0')}`;
      const at = new Date(now - i * 60_000);
      const patient = { id: source._id, userId: source.userId, name: source.name };
      tests.push({
        _id: testId,
        testOrderId: `${trf}-1`,
        testId: `${trf}-1`,
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        status: 'IN_PROGRESS',
        testHistories: [{ status: 'IN_PROGRESS', createdOn: at, testResult: null }],
        testOrderForm: {
          id,
          testRequisitionId: trf,
          account: { id: account._id, name: account.name },
          physician: { id: physician._id, name: physician.name },
          hospitalLocation: null,
          patient,
          reviewStatus: null,
        },
        outbox: [],
        createdOn: at,
        updatedOn: at,
        version: 0,
        archived: false,
        deleted: false,
      });
      reqs.push({
        _id: id,
        testRequisitionId: trf,
        status: 'SUBMITTED',
        clinicalReviewStatus: 'REVIEW_COMPLETE',
        patient: {
          id: source._id,
          userId: source.userId,
          firstName: source.firstName,
          lastName: source.lastName,
          name: source.name,
          dateOfBirth: source.dateOfBirth,
          birthSex: source.birthSex,
        },
        physician: { id: physician._id, name: physician.name, firstName: 'A', lastName: 'B' },
        account: { id: account._id, name: account.name },
        hospitalLocation: null,
        orderInformation: { nextDx: true, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
        testOrders: [
          {
            id: testId,
            testOrderId: `${trf}-1`,
            testType: 'NEXT_DX',
            orderType: 'INITIAL_ORDER',
            status: 'IN_PROGRESS',
          },
        ],
        tumorSpecimen: { diagnosis: 'LUNG', icd10Codes: 'C34.90' },
        billings: [{ id: randomUUID(), billingType: 'SELF', preference: 'PRIMARY' }],
        attachments: [],
        approvals: [],
        sampleStatuses: [],
        billingReview: { status: 'REVIEW_COMPLETE' },
        limsProjectIds: [],
        reports: [],
        outbox: [],
        createdOn: at,
        updatedOn: at,
        version: 3,
        archived: false,
        deleted: false,
      });
    }
    await Requisition.collection.insertMany(reqs);
    await TestOrder.collection.insertMany(tests);
    // what the reference service's consumer would have recorded from their requisition-submitted events
    await ref.PatientRequisition.insertMany(reqs.map((r) => ({ _id: r._id, patientId: source._id })));

    const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
    const { authorization } = await login(sys, admin.loginId);
    const address = await sys.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `${address}/portal/api/v1`;
    const headers = { authorization, 'content-type': 'application/json' };
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const LISTS = {
      patients: '/patients?page=0&perPage=15',
      orders: '/testOrderForms?page=0&size=15&sort=updatedOn,DESC',
    };
    /**
     * Open-loop sampling: one list request every `periodMs` (not waiting for the previous one, as users click
     * whatever the server is doing), `requests` of them, or until `until()` says stop; the latencies' figures.
     */
    const load = async (path: string, until?: () => boolean): Promise<RunFigures & { n: number }> => {
      const samples: number[] = [];
      const inflight: Promise<void>[] = [];
      const t0 = performance.now();
      for (let i = 0; until ? !until() : i < requests; i++) {
        const t = performance.now();
        inflight.push(get(path).then(() => void samples.push(performance.now() - t)));
        await new Promise((r) => setTimeout(r, periodMs));
      }
      await Promise.all(inflight);
      return { ...stats(samples, performance.now() - t0), n: samples.length };
    };
    for (const p of Object.values(LISTS)) await get(p); // warm
    const rest = { patients: await load(LISTS.patients), orders: await load(LISTS.orders) };

    const runOnce = async (label: string, start: () => Promise<any>, endStatus: string, testsOn: string) => {
      const t0 = performance.now();
      const merge = await start();
      let doneAt = 0;
      let testsAt = 0;
      const watch = (async () => {
        for (;;) {
          if (!doneAt) {
            const m = await get(`/patients/merges/${merge.id}`);
            if (m.status === endStatus) doneAt = performance.now();
          }
          if (!testsAt) {
            const n = await TestOrder.countDocuments({ 'testOrderForm.patient.id': testsOn });
            if (n === count) testsAt = performance.now();
          }
          if (doneAt && testsAt) return;
          if (performance.now() - t0 > 1_200_000) throw new Error(`${label} did not end in 20 minutes`);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const finished = () => Boolean(doneAt && testsAt);
      const during = await Promise.all([load(LISTS.patients, finished), load(LISTS.orders, finished)]);
      await watch;
      console.log(
        `${label}: ${count} requisitions, ${secs(doneAt - t0)} to ${endStatus}; lab test orders all followed after ${secs(testsAt - t0)}`,
      );
      console.log(`  patients list during: ${fmt(during[0])} (${during[0].n} requests)`);
      console.log(`  orders list during:   ${fmt(during[1])} (${during[1].n} requests)`);
      return merge;
    };

    console.log(`patients list at rest: ${fmt(rest.patients)}`);
    console.log(`orders list at rest:   ${fmt(rest.orders)}`);
    const merge = await runOnce(
      'merge',
      async () => {
        const res = await fetch(`${base}/patients/mergePatients?sourceId=${source._id}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ targetPatient: { id: target._id } }),
        });
        if (res.status !== 202) throw new Error(`merge: ${res.status} ${await res.text()}`);
        return res.json();
      },
      'DONE',
      target._id,
    );
    const moved = await Requisition.countDocuments({ 'patient.id': target._id });
    if (moved !== count) throw new Error(`${moved} of ${count} requisitions on the target`);
    await runOnce(
      'undo',
      async () => {
        const res = await fetch(`${base}/patients/merges/${merge.id}/undo`, {
          method: 'POST',
          headers: { authorization },
        });
        if (res.status !== 202) throw new Error(`undo: ${res.status} ${await res.text()}`);
        return res.json();
      },
      'UNDONE',
      source._id,
    );
  } finally {
    await sys.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
