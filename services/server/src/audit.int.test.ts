import { describe, expect, it } from 'vitest';
import {
  auditModels,
  MSG_AUDIT_UNAVAILABLE,
  auditTrailOf,
  type AuditModels,
  type InboxDoc,
} from '@onco/platform';
import { createReferenceModule, type SeedResult } from '@onco/reference';
import { completeForm, TEST_ORDER_FORMS as API } from '@onco/requisitions/testing';
import { provider, TEST_PASSWORD, user, useTestSystem } from '@onco/testing';
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

  it('when the entry cannot be written the read fails with a 503, and nothing of the record is sent', async () => {
    const { id } = await submitted();
    const inbox = auditTrailOf(sys.ctx).models.Inbox.collection;
    const insertMany = inbox.insertMany.bind(inbox);
    inbox.insertMany = (() => Promise.reject(new Error('store unavailable'))) as typeof inbox.insertMany;
    try {
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
    } finally {
      inbox.insertMany = insertMany;
    }
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
    const inbox = auditTrailOf(sys.ctx).models.Inbox.collection;
    const insertOne = inbox.insertOne.bind(inbox);
    inbox.insertOne = (() => Promise.reject(new Error('store unavailable'))) as typeof inbox.insertOne;
    try {
      const res = await call('PUT', `${API}/${id}`, 'npi', {
        ...form,
        status: 'DRAFT',
        tumorSpecimen: { ...form.tumorSpecimen, stage: 'I' },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
    } finally {
      inbox.insertOne = insertOne;
    }
    const after = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as never });
    expect(after).toEqual(before);
  });
});
