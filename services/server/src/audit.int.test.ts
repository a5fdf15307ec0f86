import { describe, expect, it } from 'vitest';
import { auditModels, MSG_AUDIT_UNAVAILABLE, type AuditModels, type InboxDoc } from '@onco/platform';
import { createReferenceModule, type SeedResult } from '@onco/reference';
import { completeForm, TEST_ORDER_FORMS as API } from '@onco/requisitions/testing';
import { provider, TEST_PASSWORD, user, useTestSystem, withAuditEntriesRefused } from '@onco/testing';
import { submitThroughApi } from '../../requisitions/test/submit';

/**
 * Reads of PHI leave an audit entry before the reply is sent (docs/audit.md "Reads"), on the real store: who, on
 * whose behalf, which record and patient, from where (address, user agent, request id), allowed or refused (a 404
 * outside the data scope, a 403 without the permission); none without a session; and when the entry cannot be
 * written the request fails with a 503 instead of serving the data unrecorded.
 */
let seed: SeedResult;
let A: { id: string; name: string };
let B: { id: string; name: string };
let models: AuditModels;
const { sys, h, users, call } = useTestSystem({
  prepare: async () => {
    seed = await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
    [A, B] = seed.accounts;
    models = auditModels(sys.ctx.mongo);
  },
  users: {
    npi: () => provider(A, seed.physicians[0].id),
    other: () => user('ROLE_NON_NPI', { account: B }),
    observer: () => user('ROLE_OBSERVER', { account: A }),
    lab: 'ROLE_PROJECT_MANAGER',
  },
});

const patientOfA = () => seed.patients.find((p) => p.accountIds.includes(A.id))!;
/** the entries recorded since `since` (the inbox: this system runs no chainer), oldest first */
const entriesSince = async (since: Date) =>
  models.Inbox.find({ when: { $gte: since } })
    .sort({ when: 1 })
    .lean<InboxDoc[]>();
const submitted = async () => {
  const form = completeForm({
    accountId: A.id,
    physicianId: seed.physicians[0].id,
    patientId: patientOfA().id,
  });
  return submitThroughApi(sys, h.npi, form);
};

describe('audit: reads of PHI', () => {
  it('a requisition read is recorded before the reply: who, on whose behalf, what, from where', async () => {
    const { id } = await submitted();
    const since = new Date();
    const res = await sys.app.inject({
      method: 'GET',
      url: `${API}/${id}`,
      headers: { ...h.npi, 'user-agent': 'audit-test/1.0', 'x-request-id': 'audit-read-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry, ...more] = await entriesSince(since);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      who: { userId: users.npi._id, role: 'ROLE_NPI' },
      onBehalfOf: [A.id],
      what: { type: 'requisition', id, patientId: patientOfA().id },
      action: 'read',
      outcome: 'allowed',
      from: { ip: '127.0.0.1', userAgent: 'audit-test/1.0', requestId: 'audit-read-1' },
      route: 'GET /portal/api/v1/testOrderForms/:id',
      status: 200,
      changes: null,
    });
    expect(res.headers['x-request-id']).toBe('audit-read-1');
  });

  it('refused reads are recorded as refused: 404 outside the data scope, 403 without the permission', async () => {
    const { id } = await submitted();
    const since = new Date();
    expect((await call('GET', `${API}/${id}`, 'other')).statusCode).toBe(404);
    expect((await call('GET', `${API}/export`, 'observer')).statusCode).toBe(403);
    const [scope, permission] = await entriesSince(since);
    expect(scope).toMatchObject({
      who: { userId: users.other._id },
      what: { type: 'requisition', id, patientId: null },
      action: 'read',
      outcome: 'refused',
      status: 404,
    });
    expect(permission).toMatchObject({
      who: { userId: users.observer._id },
      what: { type: 'requisition', id: null },
      action: 'export',
      outcome: 'refused',
      status: 403,
    });
    // no session: no one to name, nothing served (the log has the 401)
    expect((await call('GET', `${API}/${id}`)).statusCode).toBe(401);
    expect(await entriesSince(since)).toHaveLength(2);
  });

  it('the patient, the timeline, the TRF and the orders export each leave their entry', async () => {
    const { id } = await submitted();
    const patient = patientOfA();
    const since = new Date();
    expect((await call('GET', `/portal/api/v1/patients/${patient.id}`, 'npi')).statusCode).toBe(200);
    expect((await call('GET', `${API}/${id}/timeline`, 'npi')).statusCode).toBe(200);
    // no PDF rendered in this system (no workers): a 404, recorded as such
    expect((await call('GET', `${API}/${id}/trf`, 'npi')).statusCode).toBe(404);
    const csv = await call('GET', `${API}/export`, 'npi');
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split('\r\n').length - 1;
    const entries = await entriesSince(since);
    expect(entries.map((e) => [e.what.type, e.action, e.outcome, e.what.patientId])).toEqual([
      ['patient', 'read', 'allowed', patient.id],
      ['timeline', 'read', 'allowed', patient.id],
      ['trf', 'download', 'refused', null],
      ['requisition', 'export', 'allowed', null],
    ]);
    expect(entries[0].onBehalfOf).toEqual(patient.accountIds);
    expect(entries[3]).toMatchObject({ count: rows, what: { id: null } });
    expect(rows).toBeGreaterThan(0);
  });

  it("a page of a list names the patients of its rows: orders, tests, patients, the picker, billing cases; a patient's billing entries and merges are reads of the patient", async () => {
    const { id } = await submitted();
    const patient = patientOfA();
    const since = new Date();
    const pages = [
      ['GET /portal/api/v1/testOrderForms', `${API}?filter=${encodeURIComponent(JSON.stringify({ id }))}`],
      ['GET /oms/api/v1/testOrders', '/oms/api/v1/testOrders?page=0&size=5'],
      ['GET /portal/api/v1/patients', '/portal/api/v1/patients?page=0&size=5'],
      [
        'GET /portal/api/v1/patients/picker',
        `/portal/api/v1/patients/picker?text=${encodeURIComponent(patient.name.split(' ').pop()!)}`,
      ],
      ['GET /bis/api/v1/billingCases', '/bis/api/v1/billingCases?page=0&size=5'],
    ] as const;
    const served: Array<{ ids: string[]; rows: number }> = [];
    for (const [, url] of pages) {
      const user = url.startsWith('/oms') || url.startsWith('/bis') ? 'lab' : 'npi';
      const res = await call('GET', url, user);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const rows = res.json().content as Array<Record<string, any>>;
      const ids = rows.map((r) => (url.includes('/patients') ? r.id : r.patient?.id)).filter(Boolean);
      served.push({ ids: [...new Set(ids)] as string[], rows: rows.length });
    }
    const entries = await entriesSince(since);
    expect(entries.map((e) => e.route)).toEqual(pages.map(([route]) => route));
    entries.forEach((e, i) => {
      expect(e).toMatchObject({ action: 'read', outcome: 'allowed', status: 200, count: served[i].rows });
      expect(e.what.id).toBeNull();
      expect([...(e.what.patientIds ?? [])].sort()).toEqual([...served[i].ids].sort());
    });
    expect(entries[0].what).toMatchObject({ type: 'requisition', patientIds: [patient.id] });
    expect(entries.map((e) => e.what.type)).toEqual([
      'requisition',
      'test',
      'patient',
      'patient',
      'billing-case',
    ]);
  });

  it('when the entry cannot be written the read fails with a 503, and nothing of the record is sent', async () => {
    const { id } = await submitted();
    await withAuditEntriesRefused(sys.ctx, async () => {
      const res = await call('GET', `${API}/${id}`, 'npi');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 503,
        code: 'AUDIT_UNAVAILABLE',
        message: MSG_AUDIT_UNAVAILABLE,
      });
      expect(res.body).not.toContain('Lovelace');
      expect(res.body).not.toContain(patientOfA().id);
      // a download too: the file's stream is not sent
      const csv = await call('GET', `${API}/export`, 'npi');
      expect(csv.statusCode).toBe(503);
      expect(csv.headers['content-type']).toContain('application/json');
    });
    expect((await call('GET', `${API}/${id}`, 'npi')).statusCode).toBe(200);
  });
});

describe('audit: changes of a requisition commit with their entry', () => {
  it('create, save, sign, submit and delete each leave one entry naming the fields changed', async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    const since = new Date();
    const created = await call('POST', API, 'npi', form);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    // the client sends back what it read (the billing entries with their ids) and changes the stage
    const saved = await call('PUT', `${API}/${id}`, 'npi', {
      ...form,
      billings: created.json().billings,
      status: 'DRAFT',
      tumorSpecimen: { ...form.tumorSpecimen, stage: 'IV' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('POST', `${API}/${id}/sign`, 'npi', { password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const submit = await call('POST', `${API}/submit`, 'npi', {
      ...form,
      id,
      billings: saved.json().billings,
      tumorSpecimen: saved.json().tumorSpecimen,
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const draft = (await call('POST', API, 'npi', form)).json().id as string;
    expect((await call('DELETE', `${API}/${draft}`, 'npi')).statusCode).toBe(200);

    const entries = (await entriesSince(since)).filter((e) => e.action !== 'read');
    expect(entries.map((e) => [e.what.id, e.action])).toEqual([
      [id, 'create'],
      [id, 'update'],
      [id, 'update'],
      [id, 'update'],
      [draft, 'create'],
      [draft, 'delete'],
    ]);
    const [create, save, sign, submitted, , deleted] = entries;
    expect(create).toMatchObject({
      who: { userId: users.npi._id, role: 'ROLE_NPI' },
      what: { type: 'requisition', patientId: patientOfA().id },
      onBehalfOf: [A.id],
      outcome: 'allowed',
      route: 'POST /portal/api/v1/testOrderForms',
      from: { requestId: created.headers['x-request-id'] },
    });
    expect(create.changes).toEqual(
      expect.arrayContaining(['patient.firstName', 'tumorSpecimen.stage', 'status']),
    );
    expect(create.changes).not.toContain('version');
    expect(save.changes).toEqual(['tumorSpecimen.stage']);
    expect(sign.changes).toEqual(['approvals']);
    expect(submitted.changes).toEqual(expect.arrayContaining(['status', 'testRequisitionId', 'testOrders']));
    expect(submitted.route).toBe('POST /portal/api/v1/testOrderForms/submit');
    expect(deleted.changes).toEqual(['deleted']);
    // never a value: the patient's name is nowhere in the entries
    expect(JSON.stringify(entries)).not.toContain('Lovelace');
  });

  it('a save refused or lost (a stale version) records nothing', async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    const id = (await call('POST', API, 'npi', form)).json().id as string;
    const since = new Date();
    const stale = await call('PUT', `${API}/${id}`, 'npi', { ...form, status: 'DRAFT', version: 99 });
    expect(stale.statusCode).toBe(409);
    expect((await call('PUT', `${API}/${id}`, 'other', { ...form, status: 'DRAFT' })).statusCode).toBe(404);
    expect((await entriesSince(since)).filter((e) => e.action !== 'read')).toEqual([]);
  });

  it('when the entry cannot be written the change is rolled back: a 503, the requisition as it was', async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    const id = (await call('POST', API, 'npi', form)).json().id as string;
    const before = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as never });
    await withAuditEntriesRefused(sys.ctx, async () => {
      const res = await call('PUT', `${API}/${id}`, 'npi', {
        ...form,
        status: 'DRAFT',
        tumorSpecimen: { ...form.tumorSpecimen, stage: 'I' },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
    });
    const after = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as never });
    expect(after).toEqual(before);
  });
});

// (imports of the describe below, appended to this file)
import { createEvent } from '@onco/events';
import { requisitionModels } from '@onco/requisitions';
import { multipart } from '@onco/testing';
import { applyPatientMergeEvent } from '../../requisitions/src/consumers/patient-merges';

describe('audit: subsequent orders, attachments and patient merges commit with their entry', () => {
  const ATTACHMENTS = '/portal/api/v1/attachments';
  const changesOnly = async (since: Date) => (await entriesSince(since)).filter((e) => e.action !== 'read');
  const upload = (who: 'npi' | 'other', fields: Record<string, string>, filename = 'Lovelace-path.pdf') => {
    const { payload, headers } = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', filename, contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 a report') },
    ]);
    return sys.app.inject({
      method: 'POST',
      url: `${ATTACHMENTS}/upload`,
      headers: { ...h[who], ...headers },
      payload,
    });
  };

  it('a copy and a subsequent order each leave one create entry of the new requisition', async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    form.orderInformation = { nextDx: false, nextPersonalDx: true, orderType: 'INITIAL_ORDER' };
    form.tumorSpecimen.specimenType = 'FFPE_SLIDES';
    const source = await submitThroughApi(sys, h.npi, form);
    const since = new Date();
    const copy = await call('POST', `${API}/${source.id}/copy`, 'npi');
    expect(copy.statusCode, copy.body).toBe(200);
    const next = await call('POST', `${API}/${source.id}/subsequentOrder`, 'npi', {});
    expect(next.statusCode, next.body).toBe(200);
    const entries = await changesOnly(since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.action])).toEqual([
      ['requisition', copy.json().id, 'create'],
      ['requisition', next.json().id, 'create'],
    ]);
    const [copied, subsequent] = entries;
    for (const e of entries)
      expect(e).toMatchObject({
        who: { userId: users.npi._id, role: 'ROLE_NPI' },
        what: { patientId: patientOfA().id },
        onBehalfOf: [A.id],
        outcome: 'allowed',
      });
    expect(copied.route).toBe('POST /portal/api/v1/testOrderForms/:id/copy');
    expect(copied.changes).toEqual(expect.arrayContaining(['parentTestOrderForm.id', 'patient.lastName']));
    expect(subsequent.route).toBe('POST /portal/api/v1/testOrderForms/:id/subsequentOrder');
    expect(subsequent.from.requestId).toBe(next.headers['x-request-id']);
    expect(subsequent.changes).toEqual(
      expect.arrayContaining([
        'comment',
        'parentTestOrderForm.id',
        'status',
        'testOrders',
        'testRequisitionId',
      ]),
    );
    // bookkeeping and the outbox are not changes; never a value
    for (const e of entries) {
      expect(e.changes).not.toContain('outbox');
      expect(e.changes).not.toContain('createdOn');
    }
    expect(JSON.stringify(entries)).not.toContain('Lovelace');
    expect(JSON.stringify(entries)).not.toContain(source.testRequisitionId);
  });

  it("an attachment's upload and delete each leave one entry naming the requisition's patient", async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    const requisition = (await call('POST', API, 'npi', form)).json().id as string;
    const since = new Date();
    const up = await upload('npi', { type: 'RECENT_PATHOLOGY_REPORT', testOrderFormId: requisition });
    expect(up.statusCode, up.body).toBe(201);
    const attachmentId = up.json().id as string;
    const box = await upload('npi', { type: 'SAMPLE_MANIFEST', accountId: A.id }, 'manifest.csv');
    expect(box.statusCode, box.body).toBe(201);
    const del = await call('PUT', `${ATTACHMENTS}/${attachmentId}`, 'npi', { deleted: true });
    expect(del.statusCode, del.body).toBe(200);

    const entries = await changesOnly(since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.what.patientId, e.action])).toEqual([
      ['attachment', attachmentId, patientOfA().id, 'create'],
      ['attachment', box.json().id, null, 'create'],
      ['attachment', attachmentId, patientOfA().id, 'delete'],
    ]);
    const [created, boxed, deleted] = entries;
    expect(created).toMatchObject({
      who: { userId: users.npi._id, role: 'ROLE_NPI' },
      onBehalfOf: [A.id],
      outcome: 'allowed',
      route: 'POST /portal/api/v1/attachments/upload',
      from: { requestId: up.headers['x-request-id'] },
    });
    expect(created.changes).toEqual(
      expect.arrayContaining(['blobId', 'name', 'sha256', 'size', 'testOrderForm.id', 'type']),
    );
    expect(created.changes).not.toContain('outbox');
    expect(boxed.onBehalfOf).toEqual([A.id]);
    expect(deleted).toMatchObject({
      who: { userId: users.npi._id },
      onBehalfOf: [A.id],
      route: 'PUT /portal/api/v1/attachments/:id',
      changes: ['deleted'],
    });
    // never a value: not the file's name (it may name the patient), its checksum or the patient's name
    const text = JSON.stringify(entries);
    expect(text).not.toContain('Lovelace');
    expect(text).not.toContain(up.json().sha256);
  });

  it('an upload or a delete refused records nothing', async () => {
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: patientOfA().id,
    });
    const requisition = (await call('POST', API, 'npi', form)).json().id as string;
    const up = await upload('npi', { type: 'RECENT_PATHOLOGY_REPORT', testOrderFormId: requisition });
    expect(up.statusCode, up.body).toBe(201);
    const since = new Date();
    // outside the data scope (404), a type that cannot be uploaded (400), a delete by someone who cannot see it
    expect(
      (await upload('other', { type: 'RECENT_PATHOLOGY_REPORT', testOrderFormId: requisition })).statusCode,
    ).toBe(404);
    expect((await upload('npi', { type: 'TRF', testOrderFormId: requisition })).statusCode).toBe(400);
    expect((await call('PUT', `${ATTACHMENTS}/${up.json().id}`, 'other', { deleted: true })).statusCode).toBe(
      404,
    );
    expect((await changesOnly(since)).filter((e) => e.what.type === 'attachment')).toEqual([]);
  });

  it("a patient merge's moves each leave one update entry by system, naming the new patient", async () => {
    const duplicate = seed.patients.filter((p) => p.accountIds.includes(A.id))[1] ?? patientOfA();
    const form = completeForm({
      accountId: A.id,
      physicianId: seed.physicians[0].id,
      patientId: duplicate.id,
    });
    const moved = await submitThroughApi(sys, h.npi, form);
    const models = requisitionModels(sys.ctx.mongo);
    const onDuplicate = await models.Requisition.find({ 'patient.id': duplicate.id }, { _id: 1 }).lean();
    const primaryId = `pat-primary-${Date.now()}`;
    const since = new Date();
    const event = createEvent('patient', {
      data: {
        patientId: primaryId,
        change: 'merged',
        mergeId: `merge-${Date.now()}`,
        sourceIds: [duplicate.id],
        patientNumber: 'PAT-PRIMARY-1',
        patientName: 'Grace Hopperstone',
        firstName: 'Grace',
        middleName: null,
        lastName: 'Hopperstone',
        changedBy: { id: users.npi._id, name: 'Test NPI' },
        changedOn: new Date().toISOString(),
      },
    });
    const res = await applyPatientMergeEvent(sys.ctx, models, { ctx: sys.ctx, models }, event);
    expect(res?.moved).toBeGreaterThan(0);
    const entries = (await changesOnly(since)).filter((e) => e.what.type === 'requisition');
    expect(entries.map((e) => e.what.id).sort()).toEqual(onDuplicate.map((r) => r._id).sort());
    expect(entries.map((e) => e.what.id)).toContain(moved.id);
    for (const e of entries) {
      expect(e).toMatchObject({
        who: { userId: 'system', role: 'SYSTEM' },
        what: { type: 'requisition', patientId: primaryId },
        action: 'update',
        onBehalfOf: [A.id],
        route: null,
      });
      expect(e.changes).toEqual(expect.arrayContaining(['patient.id', 'patient.lastName']));
    }
    const text = JSON.stringify(entries);
    expect(text).not.toContain('Hopperstone');
    expect(text).not.toContain('PAT-PRIMARY-1');
    expect(text).not.toContain(duplicate.name.split(' ').pop()!);
    // a redelivery moves nothing and records nothing
    const again = new Date();
    await applyPatientMergeEvent(sys.ctx, models, { ctx: sys.ctx, models }, event);
    expect((await changesOnly(again)).filter((e) => e.what.type === 'requisition')).toEqual([]);
  });
});
