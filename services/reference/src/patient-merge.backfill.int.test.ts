import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createTestSystem, createUser, type Auth, type TestSystem } from '@onco/testing';
import { requisitionModels, type RequisitionModels } from '../../requisitions/src/models';
import {
  BACKFILL_MARKER_COLLECTION,
  BACKFILL_SETTLE_MS,
  backfillPatientRequisitions,
} from '../../requisitions/src/consumers/patient-merges/backfill';
import { createEvent, EXAMPLE_DATA } from '@onco/events';
import { referenceModels, type ReferenceModels } from './models';
import { adaLovelaces } from '../test/patients';
import { handlePatientPartiesEvent } from './consumers/patient-parties';

/**
 * The backfill of `patient_requisitions` (docs/decisions.md "Patient merge"): requisitions submitted before the
 * reference service's consumer existed have no row (here: written straight to the store, no event at all), so the
 * merge preview does not count them. The requisitions service's backfill inserts their rows, insert-only and in
 * batches: the preview counts them; a second run (incremental, or full) changes nothing; two runs at once insert
 * each row once; a row the consumer wrote is never overwritten; requisitions written in the last 15 minutes are
 * left to their events until a later run.
 */
const DAY = 24 * 3600_000;

describe('patient_requisitions backfill: the merge preview counts requisitions submitted before the consumer', () => {
  let sys: TestSystem;
  let ref: ReferenceModels;
  let rq: RequisitionModels;
  let auth: Auth;
  const A = { id: 'acc-backfill', name: 'Backfill Clinic' };

  beforeAll(async () => {
    // no workers: no consumer writes a row, no backfill runs at start; the test runs it
    sys = await createTestSystem({ WORKERS: 'false' });
    ref = referenceModels(sys.ctx.mongo);
    rq = requisitionModels(sys.ctx.mongo);
    const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
    auth = await authOf(sys, admin);
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
  }, 60_000);

  /** a requisition as the requisitions service stores it, last written `age` ms ago */
  async function requisition(
    patientId: string,
    age: number,
    over: { status?: 'DRAFT' | 'SUBMITTED' | 'INVALID'; deleted?: boolean } = {},
  ) {
    const id = randomUUID();
    const on = new Date(Date.now() - age);
    await rq.Requisition.create({
      _id: id,
      testRequisitionId: `TRB${id.slice(0, 6).toUpperCase()}`,
      status: over.status ?? 'SUBMITTED',
      deleted: over.deleted ?? false,
      account: { ...A, accountId: 'A-3003' },
      physician: { id: 'phys-backfill', name: 'Dr Backfill', userId: '1234567893' },
      patient: { id: patientId, firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' },
      orderInformation: { nextDx: true, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
      consent: true,
      createdOn: on,
      updatedOn: on,
      outbox: [],
    });
    return id;
  }

  const preview = async (sourceId: string, targetId: string) => {
    const res = await sys.app.inject({
      method: 'POST',
      url: `/portal/api/v1/patients/mergePatients/preview?sourceId=${sourceId}`,
      headers: auth,
      payload: { targetPatient: { id: targetId } },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().moves as { requisitions: number; billingEntries: number };
  };
  const rows = () => ref.PatientRequisition.find().sort({ _id: 1 }).lean().exec();

  it('inserts the missing rows once; the preview counts them; running it again changes nothing', async () => {
    const T = `bf-target-${sys.suffix}`;
    const S = `bf-source-${sys.suffix}`;
    const X = `bf-other-${sys.suffix}`;
    await adaLovelaces(ref, A.id, [
      [T, 'PAT-990001'],
      [S, 'PAT-990002'],
      [X, 'PAT-990003'],
    ]);
    // S: 7 submitted long ago (one INVALID, one deleted: the merge moves those too), a draft (not counted), one
    // written a minute ago (left to its events); X: 2; one more of S whose row the consumer already wrote for T
    // (it knows a later state: the backfill must not take it back)
    const old: string[] = [];
    for (let i = 0; i < 5; i++) old.push(await requisition(S, 30 * DAY + i * 1000));
    old.push(await requisition(S, 3 * DAY, { status: 'INVALID' }));
    old.push(await requisition(S, 2 * DAY, { deleted: true }));
    const draft = await requisition(S, 10 * DAY, { status: 'DRAFT' });
    const recent = await requisition(S, 60_000);
    for (let i = 0; i < 2; i++) old.push(await requisition(X, 5 * DAY));
    const consumerWrote = await requisition(S, 4 * DAY);
    const consumerRow = { _id: consumerWrote, patientId: T, updatedOn: new Date(Date.now() - DAY) };
    await ref.PatientRequisition.create(consumerRow);

    expect(await preview(S, T)).toEqual({ requisitions: 0, billingEntries: 0 });

    const first = await backfillPatientRequisitions(sys.ctx, rq, { batchSize: 3 });
    expect(first).toMatchObject({ since: null, scanned: 10, inserted: 9, aborted: false });
    expect(sys.logs.text).toContain('patient_requisitions backfill done');
    expect(await preview(S, T)).toEqual({ requisitions: 7, billingEntries: 0 });
    const after = await rows();
    expect(after.map((r) => r._id).sort()).toEqual([...old, consumerWrote].sort());
    expect(after.find((r) => r._id === consumerWrote)).toEqual(consumerRow);
    expect(after.some((r) => r._id === draft || r._id === recent)).toBe(false);

    // again: only what was written since the last run's cutoff (nothing), then everything again: no change
    const second = await backfillPatientRequisitions(sys.ctx, rq, { batchSize: 3 });
    expect(second).toMatchObject({ since: first.cutoff, scanned: 0, inserted: 0 });
    const full = await backfillPatientRequisitions(sys.ctx, rq, { batchSize: 3, full: true });
    expect(full).toMatchObject({ since: null, scanned: 10, inserted: 0 });
    expect(await rows()).toEqual(after);
    expect(await preview(S, T)).toEqual({ requisitions: 7, billingEntries: 0 });

    // two runs at once (two processes starting) on rows that are gone: each row inserted once
    await ref.PatientRequisition.deleteMany({ _id: { $in: old } }).exec();
    const both = await Promise.all([
      backfillPatientRequisitions(sys.ctx, rq, { batchSize: 2, full: true }),
      backfillPatientRequisitions(sys.ctx, rq, { batchSize: 3, full: true }),
    ]);
    expect(both[0].inserted + both[1].inserted).toBe(old.length);
    expect(await rows()).toHaveLength(old.length + 1);
    expect((await rows()).map(({ _id, patientId }) => ({ _id, patientId }))).toEqual(
      after.map(({ _id, patientId }) => ({ _id, patientId })),
    );

    // once the recent one has settled, the next start's run (incremental) adds it
    const later = await backfillPatientRequisitions(sys.ctx, rq, {
      now: new Date(Date.now() + BACKFILL_SETTLE_MS),
    });
    expect(later).toMatchObject({ scanned: 1, inserted: 1 });
    expect(await preview(S, T)).toEqual({ requisitions: 8, billingEntries: 0 });
    const marker = await sys.ctx.mongo.db!.collection(BACKFILL_MARKER_COLLECTION).findOne({});
    expect(marker).toMatchObject({ cutoff: later.cutoff, scanned: 1, inserted: 1 });
  }, 120_000);

  it("runs beside the reference service's consumer: the consumer's row is never overwritten or lost", async () => {
    const S = `bf-race-source-${sys.suffix}`;
    const T = `bf-race-target-${sys.suffix}`;
    const on = new Date(Date.now() - 3 * DAY);
    const ids = Array.from({ length: 60 }, () => randomUUID());
    await rq.Requisition.insertMany(
      ids.map((id, i) => ({
        _id: id,
        testRequisitionId: `TRR${String(i).padStart(5, '0')}`,
        status: 'SUBMITTED',
        account: { ...A, accountId: 'A-3003' },
        physician: { id: 'phys-backfill', name: 'Dr Backfill', userId: '1234567893' },
        patient: { id: S, firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' },
        createdOn: on,
        updatedOn: on,
        outbox: [],
      })),
    );
    // each requisition moved to T meanwhile (the store would say T too: here it still says S, so a row the
    // backfill wrote over the consumer's would show)
    const moved = (id: string) =>
      createEvent('requisition-changed', {
        data: {
          ...EXAMPLE_DATA['requisition-changed'],
          requisitionId: id,
          changes: ['patient-changed'],
          patientId: T,
          patientMerge: { mergeId: `race-${sys.suffix}`, direction: 'merge', fromPatientId: S, total: 60 },
        },
      });
    for (let round = 0; round < 3; round++) {
      await ref.PatientRequisition.deleteMany({ _id: { $in: ids } }).exec();
      const [a, b] = await Promise.all([
        backfillPatientRequisitions(sys.ctx, rq, { batchSize: 5, full: true }),
        backfillPatientRequisitions(sys.ctx, rq, { batchSize: 7, full: true }),
        Promise.all(ids.map((id) => handlePatientPartiesEvent(ref, moved(id)))),
      ]);
      const got = await ref.PatientRequisition.find({ _id: { $in: ids } })
        .lean()
        .exec();
      expect(got).toHaveLength(60);
      expect(got.filter((r) => r.patientId !== T)).toEqual([]);
      // what the two runs report inserted is what they inserted: at most one insert per row, the consumer's others
      expect(a.inserted + b.inserted).toBeLessThanOrEqual(60);
    }
  }, 120_000);

  it('the store: an insert racing an upsert of the same missing _id never loses the upsert (what the backfill relies on)', async () => {
    const coll = sys.ctx.mongo.db!.collection<{ _id: string; v: string }>(`race_probe_${sys.suffix}`);
    const race = async (backfill: (ids: string[]) => Promise<unknown>) => {
      let lost = 0;
      for (let round = 0; round < 20; round++) {
        const ids = Array.from({ length: 20 }, (_, i) => `r${round}-${i}`);
        await Promise.all([
          backfill(ids).catch(() => undefined),
          // the reference consumer's write (attach: the row set, inserted when missing)
          ...ids.map((id) =>
            coll.findOneAndUpdate({ _id: id }, { $set: { v: 'consumer' } }, { upsert: true }),
          ),
        ]);
        lost += await coll.countDocuments({ _id: { $in: ids }, v: { $ne: 'consumer' } });
        await coll.deleteMany({});
      }
      return lost;
    };
    const byInsert = await race((ids) =>
      coll.insertMany(
        ids.map((id) => ({ _id: id, v: 'backfill' })),
        { ordered: false },
      ),
    );
    expect(byInsert).toBe(0);
  }, 120_000);
});
