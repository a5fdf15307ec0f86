import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, type AnyEvent } from '@onco/events';
import type { SessionUser } from '@onco/platform';
import { eventsIn, provider, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as RQ } from '@onco/requisitions/testing';
import { submitThroughApi } from '../../requisitions/test/submit';
import { requisitionModels, type RequisitionModels } from '../../requisitions/src/models';
import { labModels, type LabModels } from '../../lab/src/models';
import { billingModels, type BillingModels } from '../../billing/src/models';
import { referenceModels, type ReferenceModels } from './models';
import { PatientMergeService } from './patient-merges';

/**
 * Merge Patients on the real services, everything running (Kafka, the store, Redis; relay and consumers): the
 * preview (conflicts, counts, nothing written), every 400/404/409 and the scope, the merge (requisitions, the
 * lab's test orders and samples, the billing cases and the billing entries move; events published once; the
 * duplicates hidden and read-only), progress to DONE, the undo and what blocks it.
 */
let ref: ReferenceModels;
let rq: RequisitionModels;
let lab: LabModels;
let billing: BillingModels;
const P = '/portal/api/v1';
const A = { id: 'acc-merge-A', name: 'Merge Clinic A' };
const B = { id: 'acc-merge-B', name: 'Merge Clinic B' };
const PHY = 'phy-merge-1';
const { sys, h, call, collector } = useTestSystem({
  kafka: true,
  config: { WORKERS: 'true' },
  prepare: async () => {
    ref = referenceModels(sys.ctx.mongo);
    rq = requisitionModels(sys.ctx.mongo);
    lab = labModels(sys.ctx.mongo);
    billing = billingModels(sys.ctx.mongo);
  },
  collect: ['requisition-changed', 'patient', 'patient-requisitions'],
  users: { admin: 'ROLE_ADMINISTRATOR', npi: provider(A, PHY) },
});
const qs = (ids: string[]) => ids.map((id) => `sourceId=${encodeURIComponent(id)}`).join('&');
const mergeUrl = (ids: string[], preview = false) =>
  `${P}/patients/mergePatients${preview ? '/preview' : ''}?${qs(ids)}`;

let n = 0;
interface Pat {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  birthSex: 'FEMALE' | 'MALE';
  mrn: string | null;
}
/** what the reference service and a requisition both hold of a patient */
const demographics = (p: Pat) => ({
  userId: p.userId,
  firstName: p.firstName,
  lastName: p.lastName,
  name: `${p.firstName} ${p.lastName}`,
  dateOfBirth: p.dateOfBirth,
  birthSex: p.birthSex,
  mrn: p.mrn,
});
async function patient(over: Partial<Pat> & { accountId?: string } = {}): Promise<Pat> {
  n += 1;
  const p: Pat = {
    id: `pm-pat-${sys.suffix}-${n}`,
    userId: `PAT-7${String(n).padStart(5, '0')}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1961-02-03',
    birthSex: 'FEMALE',
    mrn: 'MRN-77',
    ...over,
  };
  await ref.Patient.create({
    _id: p.id,
    ...demographics(p),
    accountIds: [over.accountId ?? A.id],
    physicianIds: [PHY],
  });
  return p;
}

/** A requisition submitted for the patient through the API (the lab makes its test order, billing its case). */
async function submitted(p: Pat) {
  const form = completeForm({ accountId: A.id, physicianId: PHY, patientId: p.id });
  form.account = { ...form.account, name: A.name };
  form.patient = { ...form.patient, ...demographics(p) };
  return submitThroughApi(sys, h.admin, form);
}

/** A draft for the patient (drafts move too, silently). */
async function draftFor(p: Pat) {
  const form = completeForm({ accountId: A.id, physicianId: PHY, patientId: p.id });
  form.patient = { ...form.patient, userId: p.userId };
  const draft = await call('POST', RQ, 'admin', form);
  expect(draft.statusCode, draft.body).toBe(200);
  return draft.json().id as string;
}

async function known(p: Pat, count: number) {
  await waitFor(
    async () => {
      return (await ref.PatientRequisition.countDocuments({ patientId: p.id })) >= count ? true : null;
    },
    { what: `the reference service to know ${count} requisitions of ${p.id}`, timeoutMs: 45_000 },
  );
}

async function untilStatus(mergeId: string, status: string) {
  return waitFor(
    async () => {
      const r = await call('GET', `${P}/patients/merges/${mergeId}`, 'admin');
      expect(r.statusCode, r.body).toBe(200);
      return r.json().status === status ? r.json() : null;
    },
    { what: `merge ${mergeId} ${status}`, timeoutMs: 60_000 },
  );
}

const events = (type: string) => eventsIn<AnyEvent>(collector.messages).filter((e) => e.type === type);

describe('Merge Patients: checks (400, 404, 409, 403), nothing written', () => {
  it('refuses a bad selection with a clear message and writes nothing', async () => {
    const t = await patient();
    const s = await patient();
    const dul = await patient({ userId: `PAT-DUL-${sys.suffix}` });
    const body = { targetPatient: { id: t.id } };
    const expect400 = async (ids: string[], message: RegExp, b: unknown = body) => {
      for (const preview of [true, false]) {
        const r = await call('POST', mergeUrl(ids, preview), 'admin', b);
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().message).toMatch(message);
      }
    };
    await expect400([], /at least one duplicate/);
    await expect400([s.id, t.id], /primary patient cannot also be one of the duplicates/);
    await expect400([s.id, s.id], /listed twice/);
    await expect400([dul.id], /DUL record/);
    // unknown ids: 404 naming the id
    for (const preview of [true, false]) {
      const r = await call('POST', mergeUrl(['no-such-patient'], preview), 'admin', body);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toContain('no-such-patient');
      const r2 = await call('POST', mergeUrl([s.id], preview), 'admin', { targetPatient: { id: 'nobody' } });
      expect(r2.statusCode).toBe(404);
    }
    // a stale version of the target: 409
    const stale = await call('POST', mergeUrl([s.id]), 'admin', { targetPatient: { id: t.id, version: 7 } });
    expect(stale.statusCode, stale.body).toBe(409);
    // without CAN_MERGE_PATIENTS (a provider): 403
    expect((await call('POST', mergeUrl([s.id], true), 'npi', body)).statusCode).toBe(403);
    expect((await call('POST', mergeUrl([s.id]), 'npi', body)).statusCode).toBe(403);
    expect(await ref.PatientMerge.countDocuments({ targetId: t.id })).toBe(0);
    expect((await ref.Patient.findById(s.id).lean())?.mergedInto ?? null).toBeNull();
  });

  it('scope: a patient outside the user’s accounts is a 404 (a user of account B merging A’s patients)', async () => {
    const t = await patient();
    const s = await patient();
    const other = await patient({ accountId: B.id });
    const merges = new PatientMergeService(ref, sys.ctx);
    const scoped = {
      id: 'u-b',
      firstName: 'B',
      lastName: 'User',
      grantedAuthorities: ['CAN_MERGE_PATIENTS', 'VIEW_PATIENT_ACTIONS'],
      accountIds: [B.id],
      physicianIds: [],
      allAccounts: false,
    } as unknown as SessionUser;
    await expect(merges.preview(scoped, [s.id], t.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(merges.merge(scoped, [other.id], t.id)).rejects.toMatchObject({ statusCode: 404 });
    // the same user merges within their scope
    const other2 = await patient({ accountId: B.id });
    const p = await merges.preview(scoped, [other.id], other2.id);
    expect(p.moves).toEqual({ requisitions: 0, billingEntries: 0 });
    await expect(merges.get(scoped, 'no-merge')).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('Merge Patients: preview, merge, progress, undo (real Kafka)', () => {
  let T: Pat;
  let S1: Pat;
  let S2: Pat;
  let reqs: Array<{ id: string; testRequisitionId: string; testOrders: Array<{ id: string }> }>;
  let draft: string;
  let mergeId: string;
  let billingOfS1: string;
  let sampleId: string;
  const sampleOn = (patientId: string) =>
    waitFor(
      async () => ((await lab.Sample.findById(sampleId).lean())?.patient?.id === patientId ? true : null),
      { what: `the sample to follow to ${patientId}`, timeoutMs: 45_000 },
    );

  it('preview: the conflicting fields and what would move; nothing written', async () => {
    T = await patient();
    S1 = await patient({ dateOfBirth: '1961-03-02', mrn: 'MRN-78' });
    S2 = await patient({ birthSex: 'MALE', firstName: 'ada' });
    reqs = [await submitted(S1), await submitted(S1), await submitted(S2)];
    draft = await draftFor(S1);
    // a sample of the first requisition (the lab's sample manifest list filters samples by patient)
    const [sample] = await lab.Sample.create([
      {
        type: 'TUMOR',
        testOrderForm: { id: reqs[0].id, testRequisitionId: reqs[0].testRequisitionId },
        patient: { id: S1.id, firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: null },
      },
    ]);
    sampleId = String(sample._id);
    const [b1] = await ref.PatientBilling.create([
      { patientId: S1.id, billingType: 'SELF', isDefault: true },
      { patientId: T.id, billingType: 'SELF', isDefault: true },
    ]);
    billingOfS1 = String(b1._id);
    await known(S1, 2);
    await known(S2, 1);
    const r = await call('POST', mergeUrl([S1.id, S2.id], true), 'admin', { targetPatient: { id: T.id } });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.target).toMatchObject({ id: T.id, userId: T.userId, mergedInto: null });
    expect(body.sources.map((s: any) => s.id)).toEqual([S1.id, S2.id]);
    expect(body.moves).toEqual({ requisitions: 3, billingEntries: 1 });
    const byField = Object.fromEntries(body.conflicts.map((c: any) => [c.field, c]));
    // names compared without case: 'ada' is no conflict
    expect(Object.keys(byField).sort()).toEqual(['dateOfBirth', 'mrn', 'sex']);
    expect(byField.dateOfBirth).toEqual({
      field: 'dateOfBirth',
      label: 'Date of Birth',
      target: '1961-02-03',
      sources: [
        { id: S1.id, value: '1961-03-02' },
        { id: S2.id, value: '1961-02-03' },
      ],
    });
    expect(byField.sex.sources).toEqual([
      { id: S1.id, value: 'FEMALE' },
      { id: S2.id, value: 'MALE' },
    ]);
    expect(await ref.PatientMerge.countDocuments({ targetId: T.id })).toBe(0);
  });

  it('merge: 202 RUNNING, then DONE; requisitions, test orders, samples, billing cases and entries move; events once', async () => {
    const res = await call('POST', mergeUrl([S1.id, S2.id]), 'admin', {
      targetPatient: { id: T.id, version: 0 },
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    mergeId = started.id;
    expect(started).toMatchObject({
      status: 'RUNNING',
      targetId: T.id,
      sourceIds: [S1.id, S2.id],
      sources: [
        { id: S1.id, firstName: 'Ada', lastName: 'Lovelace', patientNumber: S1.userId },
        { id: S2.id, firstName: 'ada', patientNumber: S2.userId },
      ],
      total: 3,
      undoable: false,
      finishedOn: null,
    });
    // the duplicates are merged at once: read-only, hidden from the list, still readable with mergedInto
    const s1 = await call('GET', `${P}/patients/${S1.id}`, 'admin');
    expect(s1.json()).toMatchObject({ mergedInto: T.id, mergeId, canEdit: false });
    const again = await call('POST', mergeUrl([S1.id]), 'admin', { targetPatient: { id: T.id } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/already been merged/);
    const asTarget = await call('POST', mergeUrl([T.id]), 'admin', { targetPatient: { id: S1.id } });
    expect(asTarget.statusCode).toBe(400);
    expect(asTarget.json().message).toMatch(/has been merged into another patient/);

    const done = await untilStatus(mergeId, 'DONE');
    expect(done).toMatchObject({ total: 3, moved: 3, undoable: true, undoBlockedReason: null });
    expect(done.finishedOn).toBeTruthy();

    // the requisitions (the draft too) now name the target: its id, number and names
    for (const r of reqs) {
      const got = (await call('GET', `${RQ}/${r.id}`, 'admin')).json();
      expect(got.patient).toMatchObject({
        id: T.id,
        userId: T.userId,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
    }
    expect((await rq.Requisition.findById(draft).lean())?.patient?.id).toBe(T.id);
    // the lab's test orders and samples, the billing cases
    await waitFor(
      async () => {
        const tos = await lab.TestOrder.find({ 'testOrderForm.id': { $in: reqs.map((r) => r.id) } }).lean();
        return tos.length === 3 && tos.every((t: any) => t.testOrderForm.patient.id === T.id) ? tos : null;
      },
      { what: 'the test orders to follow', timeoutMs: 45_000 },
    );
    await sampleOn(T.id);
    await waitFor(
      async () => {
        const cases = await billing.BillingCase.find({
          testOrderFormId: { $in: reqs.map((r) => r.id) },
        }).lean();
        return cases.length === 3 && cases.every((c: any) => c.patient?.id === T.id) ? cases : null;
      },
      { what: 'the billing cases to follow', timeoutMs: 45_000 },
    );
    // the billing entry moved, not default (the target has one)
    const entry = await ref.PatientBilling.findById(billingOfS1).lean();
    expect(entry).toMatchObject({ patientId: T.id, isDefault: false });
    const list = await call('GET', `${P}/patients/${T.id}/billings`, 'admin');
    expect(list.json().content.filter((b: any) => b.isDefault)).toHaveLength(1);
    // the list hides the duplicates; the target's requisitions are known to the directory
    const page = await call(
      'GET',
      `${P}/patients?perPage=100&filter=${encodeURIComponent(JSON.stringify({ accountIds: [A.id] }))}`,
      'admin',
    );
    const ids = page.json().content.map((p: any) => p.id);
    expect(ids).toContain(T.id);
    expect(ids).not.toContain(S1.id);
    await known(T, 3);
    // a merged duplicate cannot be edited, renumbered or take billing entries
    const edit = await call('PUT', `${P}/patients/${S1.id}`, 'admin', { firstName: 'X' });
    expect(edit.statusCode, edit.body).toBe(400);
    expect(edit.json().message).toMatch(/merged into another patient/);
    const renumber = await call(
      'PUT',
      `${P}/patients/updatePatientId?fromId=${S1.userId}&toId=0b7e6f0e-3c0a-4d8e-9a3b-1f2c3d4e5f60`,
      'admin',
    );
    expect(renumber.statusCode, renumber.body).toBe(400);
    const addBilling = await call('POST', `${P}/patients/${S1.id}/billings`, 'admin', {
      billingType: 'SELF',
    });
    expect(addBilling.statusCode, addBilling.body).toBe(400);

    // events: one patient event, one requisition-changed (patient-changed) per submitted requisition, one end
    await waitFor(() => (events('patient-requisitions.moved').length >= 1 ? true : null), {
      what: 'the patient-requisitions event',
      timeoutMs: 30_000,
    });
    const moved = events('requisition.changed').filter(
      (e: any) => e.data.patientMerge?.mergeId === mergeId && e.data.patientMerge.direction === 'merge',
    );
    expect(moved.map((e: any) => e.data.requisitionId).sort()).toEqual(reqs.map((r) => r.id).sort());
    expect(
      moved.every((e: any) => e.data.changes.includes('patient-changed') && e.data.patientId === T.id),
    ).toBe(true);
    expect(
      moved.every(
        (e: any) =>
          e.data.patientNumber === T.userId &&
          e.schemaVersion === CURRENT_SCHEMA_VERSION['requisition-changed'],
      ),
    ).toBe(true);
    expect(events('patient.changed').filter((e: any) => e.data.mergeId === mergeId)).toHaveLength(1);
    expect(events('patient-requisitions.moved').filter((e: any) => e.data.mergeId === mergeId)).toHaveLength(
      1,
    );

    const history = await call('GET', `${P}/patients/${T.id}/merges`, 'admin');
    expect(history.json().map((m: any) => m.id)).toEqual([mergeId]);
  });

  it('undo: the requisitions, test orders, billing entry and duplicates come back; a second undo is a 409', async () => {
    const res = await call('POST', `${P}/patients/merges/${mergeId}/undo`, 'admin');
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'UNDOING', undoable: false });
    const undone = await untilStatus(mergeId, 'UNDONE');
    expect(undone).toMatchObject({ moved: 0, undoneBy: { id: expect.any(String) } });
    expect(undone.undoFinishedOn).toBeTruthy();
    const byId = { [reqs[0].id]: S1, [reqs[1].id]: S1, [reqs[2].id]: S2 };
    for (const r of reqs) {
      const got = (await call('GET', `${RQ}/${r.id}`, 'admin')).json();
      expect(got.patient).toMatchObject({ id: byId[r.id].id, userId: byId[r.id].userId });
    }
    expect((await rq.Requisition.findById(draft).lean())?.patient?.id).toBe(S1.id);
    await waitFor(
      async () => {
        const tos = await lab.TestOrder.find({ 'testOrderForm.id': { $in: reqs.map((r) => r.id) } }).lean();
        return tos.every((t: any) => t.testOrderForm.patient.id === byId[t.testOrderForm.id].id) ? tos : null;
      },
      { what: 'the test orders to come back', timeoutMs: 45_000 },
    );
    await sampleOn(S1.id);
    expect(await ref.PatientBilling.findById(billingOfS1).lean()).toMatchObject({
      patientId: S1.id,
      isDefault: true,
    });
    const s1 = (await call('GET', `${P}/patients/${S1.id}`, 'admin')).json();
    expect(s1).toMatchObject({ mergedInto: null, canEdit: true });
    const again = await call('POST', `${P}/patients/merges/${mergeId}/undo`, 'admin');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already been undone/);
    // the duplicate can be merged again
    const m2 = await call('POST', mergeUrl([S2.id]), 'admin', { targetPatient: { id: T.id } });
    expect(m2.statusCode, m2.body).toBe(202);
    await untilStatus(m2.json().id, 'DONE');
  });

  it('undo is refused (409 with the reason) once something new is attached to the target', async () => {
    // a merge without requisitions ends at once; the target edited since → 409
    const t1 = await patient();
    const s1 = await patient();
    const m1 = (await call('POST', mergeUrl([s1.id]), 'admin', { targetPatient: { id: t1.id } })).json();
    const d1 = await untilStatus(m1.id, 'DONE');
    expect(d1).toMatchObject({ total: 0, moved: 0, undoable: true });
    const edit = await call('PUT', `${P}/patients/${t1.id}`, 'admin', {
      firstName: 'Adah',
      address: { street: '1 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const u1 = await call('POST', `${P}/patients/merges/${m1.id}/undo`, 'admin');
    expect(u1.statusCode).toBe(409);
    expect(u1.json().message).toMatch(/edited after the merge/);
    const shown = (await call('GET', `${P}/patients/merges/${m1.id}`, 'admin')).json();
    expect(shown).toMatchObject({ undoable: false, undoBlockedReason: expect.stringMatching(/edited/) });

    // a billing entry added to the target → 409
    const t2 = await patient();
    const s2 = await patient();
    const m2 = (await call('POST', mergeUrl([s2.id]), 'admin', { targetPatient: { id: t2.id } })).json();
    await untilStatus(m2.id, 'DONE');
    const add = await call('POST', `${P}/patients/${t2.id}/billings`, 'admin', { billingType: 'SELF' });
    expect(add.statusCode, add.body).toBe(201);
    const u2 = await call('POST', `${P}/patients/merges/${m2.id}/undo`, 'admin');
    expect(u2.statusCode).toBe(409);
    expect(u2.json().message).toMatch(/billing information changed/);

    // a new requisition for the target → 409 naming it
    const t3 = await patient();
    const s3 = await patient();
    const m3 = (await call('POST', mergeUrl([s3.id]), 'admin', { targetPatient: { id: t3.id } })).json();
    await untilStatus(m3.id, 'DONE');
    const fresh = await submitted(t3);
    const blocked = await waitFor(
      async () => {
        const r = (await call('GET', `${P}/patients/merges/${m3.id}`, 'admin')).json();
        return r.undoBlockedReason ? r : null;
      },
      { what: 'the undo to be blocked by the new requisition', timeoutMs: 45_000 },
    );
    expect(blocked.undoBlockedReason).toContain(fresh.testRequisitionId);
    const u3 = await call('POST', `${P}/patients/merges/${m3.id}/undo`, 'admin');
    expect(u3.statusCode).toBe(409);
    expect(u3.json().message).toContain(fresh.testRequisitionId);
    // an unknown merge is a 404
    expect((await call('POST', `${P}/patients/merges/nope/undo`, 'admin')).statusCode).toBe(404);
    expect((await call('GET', `${P}/patients/merges/nope`, 'admin')).statusCode).toBe(404);
  });
});
