import { describe, expect, it } from 'vitest';
import { auditTrailOf, type InboxDoc } from '@onco/platform';
import { auditEntriesSince, inRecordOrder, user, useTestSystem } from '@onco/testing';
import { importIcd10Fixture, qualifiedCase } from '../test/fixtures';
import { billingModels, upsertBillingSpecialists, type BillingCaseDoc, type BillingModels } from './models';

/**
 * Every change billing staff make to a billing case commits with its audit entry (docs/audit.md "Changes"), on
 * the real store: Update Billing Code, Assign Billing User, Update Billing Status, Submit (one and bulk). Each case
 * changed leaves one entry: who, on whose behalf (the case's account), the case and its patient, the route, the
 * names of the fields changed and never a value; a refused change leaves none; an entry that cannot be written
 * rolls the change back (503).
 */
let billing: BillingModels;
const BIS = '/bis/api/v1';
const { sys, users, call } = useTestSystem({
  prepare: async () => {
    billing = billingModels(sys.ctx.mongo);
    await importIcd10Fixture(sys.ctx.mongo);
    await upsertBillingSpecialists(billing.BillingSpecialist, [
      { id: 'bs-audit-1', name: 'Bea Biller', email: 'bea@billing.example.org' },
    ]);
  },
  users: {
    admin: 'ROLE_ADMINISTRATOR',
    npi: user('ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
  },
});

/** PHI the entries must never hold: the case's patient name. */
const PATIENT_NAME = 'Zenobia Quillfeather';
let n = 0;
async function newCase(over: Record<string, unknown> = {}) {
  n += 1;
  const doc = await billing.BillingCase.create(
    qualifiedCase('audit', n, { patient: { id: `pat-audit-${n}`, name: PATIENT_NAME }, ...over }),
  );
  return { id: String(doc._id), patientId: `pat-audit-${n}` };
}
/** The change entries recorded since `since` (the inbox: this system runs no chainer), oldest first. */
const changesSince = (since: Date) => auditEntriesSince(sys.ctx.mongo, since, { changes: true });
const inOrder = inRecordOrder;
const noPhi = (entries: InboxDoc[]) => expect(JSON.stringify(entries)).not.toContain('Quillfeather');

describe('audit: changes of a billing case commit with their entry', () => {
  it('Update Billing Code names the fields changed: who, on whose behalf, the case and patient; no value', async () => {
    const c = await newCase({ caseStatus: 'NOT_SUBMITTED', billingCode: null, caseQualifiedDate: null });
    const since = new Date();
    const res = await call('POST', `${BIS}/billing/${c.id}/billingCode/ACC-AUDIT-1`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: { userId: users.admin._id, role: 'ROLE_ADMINISTRATOR' },
      onBehalfOf: ['acc-A'],
      what: { type: 'billing-case', id: c.id, patientId: c.patientId },
      action: 'update',
      outcome: 'allowed',
      route: 'POST /bis/api/v1/billing/:id/billingCode/:code',
      from: { requestId: res.headers['x-request-id'] },
    });
    expect(entries[0].changes).toEqual(expect.arrayContaining(['billingCode', 'caseHistory']));
    expect(entries[0].changes).not.toContain('version');
    expect(entries[0].changes).not.toContain('outbox');
    expect(JSON.stringify(entries)).not.toContain('ACC-AUDIT-1');
    noPhi(entries);
  });

  it('Assign Billing User and Update Billing Status: one entry a case', async () => {
    const [c1, c2] = [
      await newCase({ caseStatus: 'PARTIALLY_ACCEPTED' }),
      await newCase({ caseStatus: 'DUPLICATE_ACCESSION' }),
    ];
    const since = new Date();
    const assigned = await call('POST', `${BIS}/billing/assign/bs-audit-1`, 'admin', [c1.id, c2.id]);
    expect(assigned.statusCode, assigned.body).toBe(200);
    const fixed = await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [c1.id, c2.id]);
    expect(fixed.statusCode, fixed.body).toBe(200);
    const entries = inOrder(await changesSince(since), [c1.id, c2.id]);
    expect(entries.map((e) => [e.what.id, e.what.patientId, e.action, e.route])).toEqual([
      [c1.id, c1.patientId, 'update', 'POST /bis/api/v1/billing/assign/:billingSpecialistId'],
      [c2.id, c2.patientId, 'update', 'POST /bis/api/v1/billing/assign/:billingSpecialistId'],
      [c1.id, c1.patientId, 'update', 'PUT /bis/api/v1/billing/status/:status'],
      [c2.id, c2.patientId, 'update', 'PUT /bis/api/v1/billing/status/:status'],
    ]);
    expect(entries[0].changes).toEqual(['assignee.id', 'assignee.name', 'caseHistory']);
    expect(entries[2].changes).toEqual(['caseHistory', 'caseStatus']);
    noPhi(entries);
  });

  it('Submit, one and bulk: one entry a case queued', async () => {
    const [one, b1, b2] = [await newCase(), await newCase(), await newCase()];
    const since = new Date();
    const res = await call('POST', `${BIS}/billing/submit/${one.id}`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const bulk = await call('POST', `${BIS}/billing/submit`, 'admin', [b1.id, b2.id, 'no-such-case']);
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().submitted).toBe(2);
    const entries = inOrder(await changesSince(since), [one.id, b1.id, b2.id]);
    expect(entries.map((e) => [e.what.id, e.route])).toEqual([
      [one.id, 'POST /bis/api/v1/billing/submit/:id'],
      [b1.id, 'POST /bis/api/v1/billing/submit'],
      [b2.id, 'POST /bis/api/v1/billing/submit'],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({ who: { userId: users.admin._id }, onBehalfOf: ['acc-A'], action: 'update' });
      expect(e.changes).toEqual(
        expect.arrayContaining(['caseHistory', 'caseStatus', 'submission.generation', 'submission.queuedBy']),
      );
    }
    // the single and the bulk submit name the same fields
    expect(entries[1].changes).toEqual(entries[0].changes);
    noPhi(entries);
  });

  it('refused changes record nothing: no permission, outside the rule, an unknown case', async () => {
    const c = await newCase({ caseStatus: 'NOT_SUBMITTED' });
    const before = await billing.BillingCase.findById(c.id).lean<BillingCaseDoc>();
    const since = new Date();
    expect((await call('POST', `${BIS}/billing/${c.id}/billingCode/X-1`, 'npi')).statusCode).toBe(403);
    // FIXED_IN_XIFIN only from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION
    expect((await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [c.id])).statusCode).toBe(409);
    // all or none: one unknown case, nothing assigned
    expect(
      (await call('POST', `${BIS}/billing/assign/bs-audit-1`, 'admin', [c.id, 'no-such-case'])).statusCode,
    ).toBe(404);
    expect(await changesSince(since)).toEqual([]);
    expect(await billing.BillingCase.findById(c.id).lean<BillingCaseDoc>()).toEqual(before);
  });

  it('when the entry cannot be written the change is rolled back: a 503, the case as it was', async () => {
    const c = await newCase({ caseStatus: 'NOT_SUBMITTED', billingCode: null });
    const bulk = await newCase();
    const before = await billing.BillingCase.find({ _id: { $in: [c.id, bulk.id] } })
      .sort({ _id: 1 })
      .lean<BillingCaseDoc[]>();
    const inbox = auditTrailOf(sys.ctx).models.Inbox.collection;
    const insertOne = inbox.insertOne.bind(inbox);
    const insertMany = inbox.insertMany.bind(inbox);
    const fail = () => Promise.reject(new Error('store unavailable'));
    inbox.insertOne = fail as typeof inbox.insertOne;
    inbox.insertMany = fail as typeof inbox.insertMany;
    try {
      const res = await call('POST', `${BIS}/billing/${c.id}/billingCode/ACC-503`, 'admin');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
      const submitted = await call('POST', `${BIS}/billing/submit`, 'admin', [bulk.id]);
      expect(submitted.statusCode, submitted.body).toBe(503);
    } finally {
      inbox.insertOne = insertOne;
      inbox.insertMany = insertMany;
    }
    const after = await billing.BillingCase.find({ _id: { $in: [c.id, bulk.id] } })
      .sort({ _id: 1 })
      .lean<BillingCaseDoc[]>();
    expect(after).toEqual(before);
  });
});
