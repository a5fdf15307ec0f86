import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEvent } from '@onco/events';
import { type InboxDoc } from '@onco/platform';
import {
  auditEntriesSince,
  inRecordOrder,
  provider,
  user,
  useTestSystem,
  withAuditEntriesRefused,
} from '@onco/testing';
import { completeForm } from '@onco/requisitions/testing';
import { submitThroughApi } from '../../requisitions/test/submit';
import { referenceModels, type ReferenceModels } from './models';
import { applyPatientParties, handlePatientPartiesEvent } from './consumers/patient-parties';
import { createReferenceModule } from './index';

/**
 * Every change a user makes to a patient commits with its audit entry (docs/audit.md "Changes"), on the real
 * store: the patient registered by a submit, an edit (one and bulk), Update Patient #, the billing entries, Merge
 * Patients and its undo. Each leaves one entry a patient document: who, on whose behalf (the patient's accounts),
 * the patient, the route, the names of the fields changed and never a value; a refused change leaves none; an
 * entry that cannot be written rolls the change back (503).
 */
let models: ReferenceModels;
const P = '/portal/api/v1';
const A = { id: 'acc-audit-A', name: 'Audit Clinic A' };
const B = { id: 'acc-audit-B', name: 'Audit Clinic B' };
const PHY = 'phy-audit-1';
const { sys, h, users, call } = useTestSystem({
  prepare: async () => {
    models = referenceModels(sys.ctx.mongo);
  },
  users: {
    npi: provider(A, PHY),
    other: user('ROLE_NON_NPI', { account: B }),
    manager: 'ROLE_PROJECT_MANAGER',
    admin: 'ROLE_ADMINISTRATOR',
  },
});

/** PHI the entries must never hold: the names and birth dates of the test's patients. */
const SECRETS = ['Zenobia', 'Quillfeather', '1953-07-21', 'Marguerite', '1977-11-05', 'Ophelia'];
let n = 0;
async function patient(over: Record<string, unknown> = {}) {
  n += 1;
  const id = `audit-pat-${sys.suffix}-${n}`;
  await models.Patient.create({
    _id: id,
    userId: `PAT-8${String(n).padStart(5, '0')}`,
    firstName: 'Zenobia',
    lastName: 'Quillfeather',
    name: 'Zenobia Quillfeather',
    dateOfBirth: '1953-07-21',
    birthSex: 'FEMALE',
    address: { street: '1 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101', country: 'US' },
    accountIds: [A.id],
    physicianIds: [PHY],
    ...over,
  });
  return id;
}
/** The change entries recorded since `since` (the inbox: this system runs no chainer), oldest first. */
const changesSince = (since: Date) => auditEntriesSince(sys.ctx.mongo, since, { changes: true });
const inOrder = inRecordOrder;
/** No entry holds any of `values`. */
const noValues = (entries: InboxDoc[], values: string[]) => {
  const text = JSON.stringify(entries);
  for (const s of values) expect(text).not.toContain(s);
};
const noPhi = (entries: InboxDoc[]) => noValues(entries, SECRETS);
/** Run `fn` while no audit entry can be written (the inbox's inserts fail as a store down would). */
const withInboxDown = (fn: () => Promise<void>) => withAuditEntriesRefused(sys.ctx, fn);
const patientWhat = (id: string) => ({ type: 'patient', id, patientId: id });

describe('audit: changes of a patient commit with their entry', () => {
  it('an edit names the fields changed: who, on whose behalf, the patient, the route; no value', async () => {
    const id = await patient();
    const { version } = (await models.Patient.findById(id).lean())!;
    const since = new Date();
    const res = await call('PUT', `${P}/patients/${id}`, 'npi', {
      firstName: 'Marguerite',
      dateOfBirth: '1977-11-05',
      version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: { userId: users.npi._id, role: 'ROLE_NPI' },
      onBehalfOf: [A.id],
      what: patientWhat(id),
      action: 'update',
      outcome: 'allowed',
      route: 'PUT /portal/api/v1/patients/:id',
      from: { requestId: res.headers['x-request-id'] },
    });
    expect(entries[0].changes).toEqual(expect.arrayContaining(['dateOfBirth', 'firstName']));
    expect(entries[0].changes).not.toContain('version');
    expect(entries[0].changes).not.toContain('lastName');
    noPhi(entries);
  });

  it('a bulk edit leaves one entry a patient, committed with the bulk', async () => {
    const [p1, p2] = [await patient(), await patient()];
    const since = new Date();
    const res = await call('PUT', `${P}/patients/bulk`, 'npi', [
      { id: p1, mrn: 'MRN-1' },
      { id: p2, middleName: 'Ophelia' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const entries = inOrder(await changesSince(since), [p1, p2]);
    expect(entries.map((e) => [e.what.id, e.action, e.changes])).toEqual([
      [p1, 'update', ['mrn']],
      [p2, 'update', ['middleName']],
    ]);
    expect(entries.every((e) => e.route === 'PUT /portal/api/v1/patients/bulk')).toBe(true);
    noPhi(entries);
  });

  it('refused or lost edits record nothing: a stale version, outside the scope, a bad bulk row', async () => {
    const id = await patient();
    const before = await models.Patient.findById(id).lean();
    const since = new Date();
    expect((await call('PUT', `${P}/patients/${id}`, 'npi', { mrn: 'X', version: 7 })).statusCode).toBe(409);
    expect((await call('PUT', `${P}/patients/${id}`, 'other', { mrn: 'X' })).statusCode).toBe(404);
    const bulk = await call('PUT', `${P}/patients/bulk`, 'npi', [
      { id, mrn: 'MRN-2' },
      { id: 'no-such-patient', mrn: 'MRN-3' },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(await changesSince(since)).toEqual([]);
    expect(await models.Patient.findById(id).lean()).toEqual(before);
  });

  it('Update Patient # names userId and numberHistory', async () => {
    const id = await patient();
    const from = (await models.Patient.findById(id).lean())!.userId;
    const since = new Date();
    const to = crypto.randomUUID();
    const res = await call(
      'PUT',
      `${P}/patients/updatePatientId?fromId=${encodeURIComponent(from)}&toId=${to}`,
      'admin',
    );
    expect(res.statusCode, res.body).toBe(200);
    // a number in use: refused, nothing recorded
    const taken = await call(
      'PUT',
      `${P}/patients/updatePatientId?fromId=${encodeURIComponent(to)}&toId=${to}`,
      'admin',
    );
    expect(taken.statusCode).toBe(400);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: { userId: users.admin._id, role: 'ROLE_ADMINISTRATOR' },
      onBehalfOf: [A.id],
      what: patientWhat(id),
      action: 'update',
      route: 'PUT /portal/api/v1/patients/updatePatientId',
      changes: ['numberHistory', 'userId'],
    });
  });

  it('the billing entries: add, edit, mark default, delete each one entry on the patient; a refusal none', async () => {
    const id = await patient();
    const url = `${P}/patients/${id}/billings`;
    const since = new Date();
    const entry = {
      billingType: 'INSURANCE',
      insuranceProvider: 'Aetna',
      payorId: '60054',
      insuredName: 'Zenobia Quillfeather',
      insuredDob: '07/21/1953',
      policyNumber: 'AET-1',
    };
    expect((await call('POST', url, 'npi', entry)).statusCode).toBe(201);
    const two = await call('POST', url, 'manager', { ...entry, policyNumber: 'AET-2' });
    const second = two.json().content.find((b: { policyNumber: string }) => b.policyNumber === 'AET-2');
    // refused: a provider may not mark default (403), a bad date (400)
    expect((await call('PUT', url, 'npi', { id: second.id, isDefault: true })).statusCode).toBe(403);
    expect((await call('PUT', url, 'manager', { id: second.id, insuredDob: '13/45/2000' })).statusCode).toBe(
      400,
    );
    expect((await call('PUT', url, 'manager', { id: second.id, isDefault: true })).statusCode).toBe(200);
    expect((await call('PUT', url, 'manager', { id: second.id, groupNumber: 'g-9' })).statusCode).toBe(200);
    expect((await call('PUT', url, 'manager', { id: second.id, deleted: true })).statusCode).toBe(200);
    const entries = await changesSince(since);
    expect(entries.map((e) => [e.who.userId, e.action, e.changes])).toEqual([
      [
        users.npi._id,
        'update',
        expect.arrayContaining([
          'billings.billingType',
          'billings.insuredDob',
          'billings.insuredName',
          'billings.isDefault',
          'billings.policyNumber',
        ]),
      ],
      [users.manager._id, 'update', expect.arrayContaining(['billings.policyNumber'])],
      // the new default, and the old one cleared
      [users.manager._id, 'update', ['billings.isDefault']],
      [users.manager._id, 'update', expect.arrayContaining(['billings.groupNumber'])],
      [users.manager._id, 'update', ['billings.deleted', 'billings.isDefault']],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({ what: patientWhat(id), onBehalfOf: [A.id] });
      expect(e.route).toMatch(/^(POST|PUT) \/portal\/api\/v1\/patients\/:id\/billings$/);
    }
    expect(entries[0].changes).not.toContain('billings.patientId');
    noPhi(entries);
    // the policy number is a value too
    expect(JSON.stringify(entries)).not.toContain('AET-');
  });

  it('a merge leaves one entry for the primary and one for each duplicate; its undo the same', async () => {
    const target = await patient();
    const source = await patient({ accountIds: [B.id], physicianIds: ['phy-audit-2'] });
    await models.PatientBilling.create({
      patientId: source,
      billingType: 'SELF',
      isDefault: true,
    });
    const since = new Date();
    const merged = await call(
      'POST',
      `${P}/patients/mergePatients?sourceId=${encodeURIComponent(source)}`,
      'admin',
      { targetPatient: { id: target } },
    );
    expect(merged.statusCode, merged.body).toBe(202);
    const entries = inOrder(await changesSince(since), [target, source]);
    expect(entries.map((e) => [e.what.id, e.action, e.changes])).toEqual([
      [target, 'update', ['accountIds', 'billings', 'physicianIds']],
      [source, 'update', ['billings', 'mergeId', 'mergedInto']],
    ]);
    expect(entries[0]).toMatchObject({
      who: { userId: users.admin._id },
      what: patientWhat(target),
      onBehalfOf: [A.id, B.id],
      route: 'POST /portal/api/v1/patients/mergePatients',
    });
    expect(entries[1]).toMatchObject({ what: patientWhat(source), onBehalfOf: [B.id] });
    noPhi(entries);

    // the requisitions service would say when the requisitions moved (none here): the merge is done
    const mergeId = merged.json().id as string;
    await models.PatientMerge.updateOne({ _id: mergeId }, { $set: { status: 'DONE' } }).exec();
    const undoSince = new Date();
    const undone = await call('POST', `${P}/patients/merges/${mergeId}/undo`, 'admin');
    expect(undone.statusCode, undone.body).toBe(202);
    // a second undo is refused: nothing more recorded
    expect((await call('POST', `${P}/patients/merges/${mergeId}/undo`, 'admin')).statusCode).toBe(409);
    const undoEntries = inOrder(await changesSince(undoSince), [target, source]);
    expect(undoEntries.map((e) => [e.what.id, e.action, e.changes])).toEqual([
      [target, 'update', ['accountIds', 'billings', 'physicianIds']],
      [source, 'update', ['billings', 'mergeId', 'mergedInto']],
    ]);
    expect(undoEntries[0]).toMatchObject({
      onBehalfOf: [A.id],
      route: 'POST /portal/api/v1/patients/merges/:mergeId/undo',
    });
    noPhi(undoEntries);
  });

  it('a patient registered by a submit is a `create` by the submitting user', async () => {
    const form = completeForm({ accountId: A.id, physicianId: PHY, patientId: null });
    form.patient = {
      ...form.patient,
      firstName: 'Zenobia',
      lastName: 'Quillfeather',
      name: 'Zenobia Quillfeather',
      dateOfBirth: '1953-07-21',
    };
    const since = new Date();
    const submitted = await submitThroughApi(sys, h.npi, form);
    const id = `patient-of-${submitted.id}`;
    const entries = (await changesSince(since)).filter((e) => e.what.type === 'patient');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: { userId: users.npi._id },
      onBehalfOf: [A.id],
      what: patientWhat(id),
      action: 'create',
      route: 'POST /portal/api/v1/testOrderForms/submit',
    });
    expect(entries[0].changes).toEqual(
      expect.arrayContaining(['dateOfBirth', 'firstName', 'lastName', 'name', 'userId', 'accountIds']),
    );
    expect(entries[0].changes).not.toContain('createdOn');
    noPhi(entries);
  });

  it('when the entry cannot be written the edit is rolled back: a 503, the patient as it was', async () => {
    const id = await patient();
    const before = await models.Patient.findById(id).lean();
    await withInboxDown(async () => {
      const res = await call('PUT', `${P}/patients/${id}`, 'npi', { mrn: 'MRN-503' });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
      const billing = await call('POST', `${P}/patients/${id}/billings`, 'npi', { billingType: 'SELF' });
      expect(billing.statusCode, billing.body).toBe(503);
    });
    expect(await models.Patient.findById(id).lean()).toEqual(before);
    expect(await models.PatientBilling.countDocuments({ patientId: id })).toBe(0);
  });
});

/**
 * The patient-parties consumer (a requisition's account, physician and location added to its patient, actor
 * `system`): an addition commits with one entry naming the lists that grew; an event that adds nothing (a
 * redelivery, a party the patient has) writes and records nothing.
 */
describe("audit: the patient-parties consumer's additions", () => {
  const submitted = (patientId: string, accountId: string, physicianId: string) => {
    const requisitionId = `req-audit-${randomUUID()}`;
    return createEvent('requisition-submitted', {
      data: {
        requisitionId,
        testRequisitionId: `TRF-${requisitionId}`,
        accountId,
        physicianId,
        patientId,
        patientName: 'Zenobia Quillfeather',
        submittedBy: { id: 'user-1', name: 'Dr. One' },
        submittedOn: new Date().toISOString(),
        createPdf: false,
        testOrders: [],
        clinicalReviewStatus: null,
        icd10Codes: [],
      },
    });
  };
  const SYSTEM_WHO = { userId: 'system', role: 'SYSTEM', name: '' };

  it('a new account: one `update` by system naming accountIds; the redelivered event records nothing', async () => {
    const id = await patient();
    const before = (await models.Patient.findById(id).lean())!;
    const event = submitted(id, B.id, PHY);
    const since = new Date();
    await handlePatientPartiesEvent(models, event);
    const after = (await models.Patient.findById(id).lean())!;
    expect(after.accountIds).toEqual([A.id, B.id]);
    expect(after.physicianIds).toEqual([PHY]);
    // no user edited it: its version and updatedOn as they were
    expect(after.version).toBe(before.version);
    expect(after.updatedOn).toEqual(before.updatedOn);

    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: SYSTEM_WHO,
      onBehalfOf: [A.id, B.id],
      what: patientWhat(id),
      action: 'update',
      outcome: 'allowed',
      route: null,
      from: { ip: null, userAgent: null, requestId: null },
      changes: ['accountIds'],
    });
    noPhi(entries);

    // redelivered: the patient has both, nothing written, nothing recorded
    const again = new Date();
    await handlePatientPartiesEvent(models, event);
    expect(await changesSince(again)).toEqual([]);
    expect(await models.Patient.findById(id).lean()).toEqual(after);
  });

  it('a new physician and location at once name both lists; an unknown patient records nothing', async () => {
    const id = await patient();
    const since = new Date();
    const parties = {
      patientId: id,
      accountId: A.id,
      physicianId: 'phy-audit-2',
      hospitalLocationId: 'loc-audit-1',
    };
    expect(await applyPatientParties(models, parties)).toBe(true);
    expect(await applyPatientParties(models, parties)).toBe(false);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ who: SYSTEM_WHO, what: patientWhat(id), action: 'update' });
    expect(entries[0].changes).toEqual(['hospitalLocationIds', 'physicianIds']);
    expect((await models.Patient.findById(id).lean())!.hospitalLocationIds).toEqual(['loc-audit-1']);

    const none = new Date();
    expect(await applyPatientParties(models, { patientId: `no-such-${randomUUID()}`, accountId: B.id })).toBe(
      false,
    );
    expect(await changesSince(none)).toEqual([]);
  });
});

/**
 * Every change a user makes to reference data through the API commits with its audit entry (docs/audit.md
 * "Changes"): accounts, physicians and hospital locations (the generic resource routes, one and bulk: one entry a
 * record) and maintenance windows (create, cancel). No patient; on behalf of the record's account (an account its
 * own, a physician theirs, a location its account; a maintenance window none, so the user's); the names of the
 * fields changed, never a value. The seeders write reference data as no user's change: they record nothing.
 */
describe('audit: changes of reference data commit with their entry', () => {
  const C = { id: 'acc-audit-C', name: 'Audit Clinic C' };
  const D = { id: 'acc-audit-D', name: 'Audit Clinic D' };
  /** values the entries must never hold: the names, phones and texts the tests write */
  const VALUES = ['Sycamore', '2065550147', 'Lindqvist', 'Harborview', '2535550188', 'Quarterly upgrade'];
  let k = 0;
  /** A physician of account A (in the provider's scope), as a directory holds them. */
  async function physician() {
    k += 1;
    const doc = await models.Physician.create({
      _id: `phy-audit-ref-${k}`,
      userId: `${1234567800 + k}`,
      firstName: 'Ada',
      lastName: 'Okafor',
      name: 'Ada Okafor',
      accountIds: [A.id],
    });
    return { id: doc._id, version: doc.version };
  }
  const location = (name: string) => ({
    name,
    account: { id: A.id },
    address: { city: 'Tacoma', state: 'WA', telephone: '(253) 555-0188' },
  });
  const recordWhat = (type: string, id: string) => ({ type, id, patientId: null });

  it('seeding the demo directory (accounts, physicians, locations, a maintenance window) records nothing', async () => {
    const since = new Date();
    const seed = await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
    expect(seed.created).toBe(true);
    expect(seed.accounts.length).toBeGreaterThan(0);
    expect(seed.physicians.length).toBeGreaterThan(0);
    expect(seed.hospitalLocations.length).toBeGreaterThan(0);
    expect(await models.MaintenanceWindow.countDocuments({})).toBeGreaterThan(0);
    expect(await changesSince(since)).toEqual([]);
    // the accounts of this file's users, as the directory holds them (no user's change either)
    for (const a of [A, B, C, D])
      await models.Account.create({ _id: a.id, accountId: `ACC-${a.id}`, name: a.name });
  });

  it('an account: its edit and a bulk edit, one entry an account on its own behalf; no value', async () => {
    const since = new Date();
    const one = await call('PUT', `${P}/accounts/${C.id}`, 'admin', {
      name: 'Sycamore Oncology',
      address: { city: 'Lindqvist' },
    });
    expect(one.statusCode, one.body).toBe(200);
    const bulk = await call('PUT', `${P}/accounts/bulk`, 'admin', [
      { id: C.id, name: 'Sycamore Oncology East' },
      { id: D.id, address: { street: 'Sycamore Way' } },
    ]);
    expect(bulk.statusCode, bulk.body).toBe(200);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      who: { userId: users.admin._id, role: 'ROLE_ADMINISTRATOR' },
      onBehalfOf: [C.id],
      what: recordWhat('account', C.id),
      action: 'update',
      outcome: 'allowed',
      route: 'PUT /portal/api/v1/accounts/:id',
      from: { requestId: one.headers['x-request-id'] },
      changes: ['address.city', 'name'],
    });
    const inBulk = inOrder(entries.slice(1), [C.id, D.id]);
    expect(inBulk.map((e) => [e.what, e.onBehalfOf, e.action, e.changes])).toEqual([
      [recordWhat('account', C.id), [C.id], 'update', ['name']],
      [recordWhat('account', D.id), [D.id], 'update', ['address.street']],
    ]);
    for (const e of inBulk)
      expect(e).toMatchObject({
        route: 'PUT /portal/api/v1/accounts/bulk',
        from: { requestId: bulk.headers['x-request-id'] },
      });
    noValues(entries, VALUES);
  });

  it("a physician: an edit and a bulk edit, on behalf of the physician's accounts", async () => {
    const [p1, p2] = [await physician(), await physician()];
    const since = new Date();
    const one = await call('PUT', `${P}/physicians/${p1.id}`, 'npi', {
      phone: '(206) 555-0147',
      lastName: 'Lindqvist',
      version: p1.version,
    });
    expect(one.statusCode, one.body).toBe(200);
    const bulk = await call('PUT', `${P}/physicians/bulk`, 'npi', [
      { id: p1.id, fax: '2065550147' },
      { id: p2.id, middleName: 'Sycamore' },
    ]);
    expect(bulk.statusCode, bulk.body).toBe(200);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      who: { userId: users.npi._id, role: 'ROLE_NPI' },
      onBehalfOf: [A.id],
      what: recordWhat('physician', p1.id),
      action: 'update',
      route: 'PUT /portal/api/v1/physicians/:id',
      // the whole name follows the last name
      changes: ['lastName', 'name', 'phone'],
    });
    expect(inOrder(entries.slice(1), [p1.id, p2.id]).map((e) => [e.what.id, e.route, e.changes])).toEqual([
      [p1.id, 'PUT /portal/api/v1/physicians/bulk', ['fax']],
      [p2.id, 'PUT /portal/api/v1/physicians/bulk', ['middleName']],
    ]);
    noValues(entries, VALUES);
  });

  it("a pathologist: an edit, on behalf of the pathologist's accounts", async () => {
    const doc = await models.Pathologist.create({
      _id: 'path-audit-ref-1',
      name: 'Ada Okafor',
      npi: '1234567893',
      accountIds: [A.id],
    });
    const since = new Date();
    const one = await call('PUT', `${P}/pathologists/${doc._id}`, 'npi', {
      name: 'Ada Lindqvist',
      fax: '(206) 555-0147',
      version: doc.version,
    });
    expect(one.statusCode, one.body).toBe(200);
    const entries = await changesSince(since);
    expect(entries.map((e) => [e.what, e.onBehalfOf, e.action, e.route, e.changes])).toEqual([
      [
        recordWhat('pathologist', doc._id),
        [A.id],
        'update',
        'PUT /portal/api/v1/pathologists/:id',
        ['fax', 'name'],
      ],
    ]);
    noValues(entries, VALUES);
  });

  it('a hospital location: create and bulk create (`create`, the fields set), edit and bulk edit', async () => {
    const since = new Date();
    const created = await call('POST', `${P}/hospitalLocations`, 'npi', location('Harborview Annex'));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const many = await call('POST', `${P}/hospitalLocations/bulk`, 'npi', [
      location('Harborview North'),
      location('Harborview South'),
    ]);
    expect(many.statusCode, many.body).toBe(201);
    const manyIds = many.json().map((l: { id: string }) => l.id) as string[];
    const edited = await call('PUT', `${P}/hospitalLocations/${id}`, 'npi', {
      address: { fax: '(253) 555-0188' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const bulkEdit = await call('PUT', `${P}/hospitalLocations/bulk`, 'npi', [
      { id: manyIds[1], name: 'Harborview South Wing' },
    ]);
    expect(bulkEdit.statusCode, bulkEdit.body).toBe(200);

    const entries = await changesSince(since);
    expect(entries).toHaveLength(5);
    expect(entries[0]).toMatchObject({
      who: { userId: users.npi._id },
      onBehalfOf: [A.id],
      what: recordWhat('hospital-location', id),
      action: 'create',
      route: 'POST /portal/api/v1/hospitalLocations',
      from: { requestId: created.headers['x-request-id'] },
    });
    expect(entries[0].changes).toEqual(
      expect.arrayContaining([
        'account.id',
        'account.name',
        'address.city',
        'address.state',
        'address.telephone',
        'hospitalLocationId',
        'name',
      ]),
    );
    // bookkeeping and fields left empty are not named
    for (const f of ['createdOn', 'createdBy', 'updatedBy', 'version', 'address.fax', 'address.street'])
      expect(entries[0].changes).not.toContain(f);
    const createdInBulk = inOrder(entries.slice(1, 3), manyIds);
    expect(createdInBulk.map((e) => [e.what.id, e.action, e.route])).toEqual(
      manyIds.map((m) => [m, 'create', 'POST /portal/api/v1/hospitalLocations/bulk']),
    );
    expect(createdInBulk[0].changes).toEqual(entries[0].changes);
    expect(entries.slice(3).map((e) => [e.what.id, e.action, e.route, e.changes])).toEqual([
      [id, 'update', 'PUT /portal/api/v1/hospitalLocations/:id', ['address.fax']],
      [manyIds[1], 'update', 'PUT /portal/api/v1/hospitalLocations/bulk', ['name']],
    ]);
    noValues(entries, VALUES);
  });

  it('a maintenance window: scheduled (`create`) and cancelled (`delete`); a second cancel records nothing', async () => {
    const start = Date.now() + 3 * 24 * 3600 * 1000;
    const since = new Date();
    const created = await call('POST', `${P}/maintenance`, 'admin', {
      startTime: start,
      endTime: start + 3600 * 1000,
      title: 'Quarterly upgrade',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const cancelled = await call('DELETE', `${P}/maintenance/${id}`, 'admin');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await call('DELETE', `${P}/maintenance/${id}`, 'admin')).statusCode).toBe(404);

    const entries = await changesSince(since);
    expect(entries.map((e) => [e.what, e.action, e.route])).toEqual([
      [recordWhat('maintenance-window', id), 'create', 'POST /portal/api/v1/maintenance'],
      [recordWhat('maintenance-window', id), 'delete', 'DELETE /portal/api/v1/maintenance/:id'],
    ]);
    for (const e of entries)
      // no account of its own: on behalf of the user's accounts (an administrator sees every account: none)
      expect(e).toMatchObject({ who: { userId: users.admin._id }, onBehalfOf: [] });
    expect(entries[0].changes).toEqual(
      expect.arrayContaining(['displayTime', 'endTime', 'startTime', 'title']),
    );
    expect(entries[0].changes).not.toContain('createdBy');
    expect(entries[1].changes).toEqual(['deleted']);
    noValues(entries, VALUES);
  });

  it('refused changes record nothing and change nothing: 403, 400, 409, 404', async () => {
    const p = await physician();
    const loc = (await call('POST', `${P}/hospitalLocations`, 'npi', location('Harborview West'))).json();
    const before = {
      account: await models.Account.findById(C.id).lean(),
      physician: await models.Physician.findById(p.id).lean(),
      location: await models.HospitalLocation.findById(loc.id).lean(),
      locations: await models.HospitalLocation.countDocuments({}),
      windows: await models.MaintenanceWindow.countDocuments({}),
    };
    const since = new Date();
    const start = Date.now() + 3600 * 1000;
    const refused: Array<[number, Parameters<typeof call>]> = [
      // 403: no permission (a project manager edits an account, a provider schedules a window or sets an e-mail),
      // another account's location
      [403, ['PUT', `${P}/accounts/${C.id}`, 'manager', { name: 'Sycamore' }]],
      [403, ['POST', `${P}/maintenance`, 'npi', { startTime: start, endTime: start + 1, title: 'Sycamore' }]],
      [403, ['PUT', `${P}/physicians/${p.id}`, 'npi', { email: 'sycamore@example.com' }]],
      [403, ['POST', `${P}/hospitalLocations`, 'other', location('Harborview Elsewhere')]],
      // 400: the rules (a blank name, a bad telephone, a window that ends before it starts, a bad bulk row)
      [400, ['PUT', `${P}/accounts/${C.id}`, 'admin', { name: '  ' }]],
      [400, ['PUT', `${P}/hospitalLocations/${loc.id}`, 'npi', { address: { telephone: '12' } }]],
      [
        400,
        ['POST', `${P}/maintenance`, 'admin', { startTime: start, endTime: start - 1, title: 'Sycamore' }],
      ],
      [400, ['POST', `${P}/hospitalLocations/bulk`, 'npi', [location('Harborview East'), location('')]]],
      // 409: a stale version, one and in a bulk
      [409, ['PUT', `${P}/physicians/${p.id}`, 'npi', { lastName: 'Lindqvist', version: p.version + 5 }]],
      [
        409,
        ['PUT', `${P}/physicians/bulk`, 'npi', [{ id: p.id, fax: '2065550147', version: p.version + 5 }]],
      ],
      // 404: outside the scope
      [404, ['PUT', `${P}/hospitalLocations/${loc.id}`, 'other', { name: 'Harborview Elsewhere' }]],
      [404, ['DELETE', `${P}/maintenance/no-such-window`, 'admin']],
    ];
    for (const [status, args] of refused) {
      const res = await call(...args);
      expect(res.statusCode, `${args[0]} ${args[1]}: ${res.body}`).toBe(status);
    }
    expect(await changesSince(since)).toEqual([]);
    expect({
      account: await models.Account.findById(C.id).lean(),
      physician: await models.Physician.findById(p.id).lean(),
      location: await models.HospitalLocation.findById(loc.id).lean(),
      locations: await models.HospitalLocation.countDocuments({}),
      windows: await models.MaintenanceWindow.countDocuments({}),
    }).toEqual(before);
  });

  it('when the entry cannot be written: a 503 and nothing changed (edit, bulk edit, create, bulk create, window)', async () => {
    const p = await physician();
    const window = (
      await call('POST', `${P}/maintenance`, 'admin', {
        startTime: Date.now() + 3600 * 1000,
        endTime: Date.now() + 7200 * 1000,
        title: 'Quarterly upgrade',
      })
    ).json();
    const before = {
      account: await models.Account.findById(C.id).lean(),
      physician: await models.Physician.findById(p.id).lean(),
      window: await models.MaintenanceWindow.findById(window.id).lean(),
      locations: await models.HospitalLocation.countDocuments({}),
      windows: await models.MaintenanceWindow.countDocuments({}),
    };
    const start = Date.now() + 3600 * 1000;
    await withInboxDown(async () => {
      for (const args of [
        ['PUT', `${P}/accounts/${C.id}`, 'admin', { name: 'Sycamore Oncology West' }],
        ['PUT', `${P}/physicians/bulk`, 'npi', [{ id: p.id, phone: '2065550147' }]],
        ['POST', `${P}/hospitalLocations`, 'npi', location('Harborview Lost')],
        ['POST', `${P}/hospitalLocations/bulk`, 'npi', [location('Harborview Lost 2')]],
        ['POST', `${P}/maintenance`, 'admin', { startTime: start, endTime: start + 1, title: 'Sycamore' }],
        ['DELETE', `${P}/maintenance/${window.id}`, 'admin'],
      ] as Array<Parameters<typeof call>>) {
        const res = await call(...args);
        expect(res.statusCode, `${args[0]} ${args[1]}: ${res.body}`).toBe(503);
        expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
      }
    });
    expect({
      account: await models.Account.findById(C.id).lean(),
      physician: await models.Physician.findById(p.id).lean(),
      window: await models.MaintenanceWindow.findById(window.id).lean(),
      locations: await models.HospitalLocation.countDocuments({}),
      windows: await models.MaintenanceWindow.countDocuments({}),
    }).toEqual(before);
  });
});
