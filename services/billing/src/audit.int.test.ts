import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type EventEnvelope } from '@onco/events';
import { type InboxDoc } from '@onco/platform';
import {
  auditEntriesSince,
  inRecordOrder,
  user,
  useTestSystem,
  withAuditEntriesRefused,
} from '@onco/testing';
import { importIcd10Fixture, qualifiedCase } from '../test/fixtures';
import { gatewayDir, removeGatewayDir } from '../test/submission-system';
import { billingModels, upsertBillingSpecialists, type BillingCaseDoc, type BillingModels } from './models';
import { handleCaseEvent } from './consumers/cases';
import { applyFeedEntry } from './submission/apply-feed-entry';
import { createGatewayClient } from './submission/gateway-client';
import { startGatewayStandin, type FeedEntry, type GatewayStandin } from './submission/gateway-standin';
import { execSubmitJob, type SubmitJobDeps } from './submission/process-job';
import { SubmissionRetry, submitJobData } from './submission/submit-job';
import { uncastWrites } from './submission/writes';

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
    await withAuditEntriesRefused(sys.ctx, async () => {
      const res = await call('POST', `${BIS}/billing/${c.id}/billingCode/ACC-503`, 'admin');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
      const submitted = await call('POST', `${BIS}/billing/submit`, 'admin', [bulk.id]);
      expect(submitted.statusCode, submitted.body).toBe(503);
    });
    const after = await billing.BillingCase.find({ _id: { $in: [c.id, bulk.id] } })
      .sort({ _id: 1 })
      .lean<BillingCaseDoc[]>();
    expect(after).toEqual(before);
  });
});

/** The actor of the system's writes (a worker, a poller, a consumer: no request). */
const SYSTEM_WHO = { userId: 'system', role: 'SYSTEM', name: '' };
const systemEntry = (c: { id: string; patientId: string | null }) => ({
  who: SYSTEM_WHO,
  what: { type: 'billing-case', id: c.id, patientId: c.patientId },
  outcome: 'allowed',
  route: null,
  from: { ip: null, userAgent: null, requestId: null },
});

/**
 * The system's writes of a billing case commit with their entries too (actor `system`): the submission worker's
 * steps (its processor run on a job as BullMQ would, against the gateway stand-in over HTTP), the status feed's
 * answers, and a case opened by the billing consumer. Each write that changed the case leaves one entry naming the
 * fields it changed; a repeated job, feed entry or event leaves none.
 */
describe("audit: the system's writes of a billing case (submission worker, status feed, consumer)", () => {
  let standin: GatewayStandin;
  let deps: SubmitJobDeps;
  const dir = gatewayDir('audit');

  beforeAll(async () => {
    standin = await startGatewayStandin({ dir });
    const gateway = createGatewayClient(standin.url, { timeoutMs: 5000, sockets: 2 });
    deps = { ctx: sys.ctx, models: billing, gateway, timeoutMs: 5000, attempts: 3, ...uncastWrites(billing) };
  });
  afterAll(async () => {
    deps?.gateway.close();
    await standin?.close();
    removeGatewayDir(dir);
  });

  /** a new case queued by Submit (an administrator's entry), read back as its job finds it */
  async function queued(billingCode: string) {
    const c = await newCase({ billingCode });
    const res = await call('POST', `${BIS}/billing/submit/${c.id}`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const doc = (await billing.BillingCase.findById(c.id).lean<BillingCaseDoc>())!;
    expect(doc.caseStatus).toBe('QUEUED_FOR_SUBMISSION');
    return { ...c, job: submitJobData(doc) };
  }
  const get = async (id: string) => (await billing.BillingCase.findById(id).lean<BillingCaseDoc>())!;
  const history = (d: BillingCaseDoc) => d.caseHistory.map((e) => e.status);

  it("the worker's first send: SUBMITTED_TO_XIFIN and the answer, one entry each by system; a re-run records nothing", async () => {
    const c = await queued('ACC-AUDIT-W1');
    const since = new Date();
    const res = await execSubmitJob(deps, { data: c.job, attemptsMade: 0, opts: { attempts: 3 } });
    expect(res).toEqual({ outcome: 'answered', status: 'ACCEPTED_BY_XIFIN' });
    const done = await get(c.id);
    expect(history(done)).toEqual(['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN']);
    expect(done.submission).toMatchObject({ generation: 1, attempts: 1, lastError: null });

    const entries = await changesSince(since);
    expect(entries).toHaveLength(2);
    for (const e of entries)
      expect(e).toMatchObject({ ...systemEntry(c), action: 'update', onBehalfOf: ['acc-A'] });
    // markSubmitted (written without reading the case first) and the answer's step
    expect(entries.map((e) => e.changes)).toEqual([
      ['caseHistory', 'caseStatus', 'submission.attempts'],
      ['caseHistory', 'caseStatus'],
    ]);
    noPhi(entries);
    expect(JSON.stringify(entries)).not.toContain('ACC-AUDIT-W1');

    // the same job again (a redelivery): the case is no longer being sent, nothing written, nothing recorded
    const again = new Date();
    expect(await execSubmitJob(deps, { data: c.job, attemptsMade: 0, opts: { attempts: 3 } })).toEqual({
      outcome: 'skipped',
      reason: 'not-sending',
    });
    expect(await changesSince(again)).toEqual([]);
    expect(await get(c.id)).toEqual(done);
  });

  it('a retry: RETRY_SCHEDULED, then RETRY_IN_PROGRESS, RETRY_SUCCEEDED and the answer, one entry a step', async () => {
    // the billing system answers the first post of the claim 503 (payor down), then accepts it
    const c = await queued('FAIL1-ACC-AUDIT');
    const since = new Date();
    await expect(
      execSubmitJob(deps, { data: c.job, attemptsMade: 0, opts: { attempts: 3 } }),
    ).rejects.toBeInstanceOf(SubmissionRetry);
    expect((await get(c.id)).caseStatus).toBe('RETRY_SCHEDULED');
    expect(await execSubmitJob(deps, { data: c.job, attemptsMade: 1, opts: { attempts: 3 } })).toEqual({
      outcome: 'answered',
      status: 'ACCEPTED_BY_XIFIN',
    });
    const done = await get(c.id);
    expect(history(done)).toEqual([
      'QUEUED_FOR_SUBMISSION',
      'SUBMITTED_TO_XIFIN',
      'RETRY_SCHEDULED',
      'RETRY_IN_PROGRESS',
      'RETRY_SUCCEEDED',
      'ACCEPTED_BY_XIFIN',
    ]);

    const entries = await changesSince(since);
    expect(entries.map((e) => e.changes)).toEqual([
      ['caseHistory', 'caseStatus', 'submission.attempts'],
      ['caseHistory', 'caseStatus', 'errorDetails', 'submission.lastError'],
      ['caseHistory', 'caseStatus', 'submission.attempts'],
      ['caseHistory', 'caseStatus', 'errorDetails'],
      ['caseHistory', 'caseStatus', 'submission.lastError'],
    ]);
    for (const e of entries) expect(e).toMatchObject({ ...systemEntry(c), action: 'update' });
    noPhi(entries);
    // the billing system's error text is a value: not in the entries
    expect(JSON.stringify(entries)).not.toMatch(/payor|unavailable/i);
  });

  it('a status-feed answer: one entry by system naming the fields changed; the same entry again records nothing', async () => {
    const c = await queued('ACC-AUDIT-FEED');
    await execSubmitJob(deps, { data: c.job, attemptsMade: 0, opts: { attempts: 3 } });
    const reported = await fetch(`${standin.url}/claims/${encodeURIComponent(`${c.id}:1`)}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'PAID', note: 'Paid in full to Zenobia Quillfeather' }),
    });
    expect(reported.status).toBe(201);
    const entry = (await reported.json()) as FeedEntry;
    const feed = { models: billing, logger: sys.ctx.logger };

    const since = new Date();
    expect(await applyFeedEntry(feed, entry)).toEqual({
      outcome: 'applied',
      caseId: c.id,
      caseStatus: 'BILLING_COMPLETE',
    });
    const done = await get(c.id);
    expect(done.feedEntryIds).toEqual([entry.id]);
    expect(done.caseHistory.at(-1)).toMatchObject({ status: 'BILLING_COMPLETE', byId: 'billing-feed' });
    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ...systemEntry(c), action: 'update', onBehalfOf: ['acc-A'] });
    expect(entries[0].changes).toEqual(['caseHistory', 'caseStatus', 'feedEntryIds']);
    noPhi(entries);
    expect(JSON.stringify(entries)).not.toContain('Paid in full');

    // read again (the cursor not advanced after a crash): nothing changed, nothing recorded
    const again = new Date();
    expect(await applyFeedEntry(feed, entry)).toEqual({ outcome: 'repeated', caseId: c.id });
    expect(await changesSince(again)).toEqual([]);
    expect(await get(c.id)).toEqual(done);
  });

  it('a case opened by the consumer: one `create` entry by system; the redelivered event records nothing', async () => {
    const requisitionId = `req-audit-${randomUUID()}`;
    const patientId = `pat-audit-consumer-${n}`;
    const submitted = createEvent('requisition-submitted', {
      data: {
        requisitionId,
        testRequisitionId: 'TRF-AUDIT-1',
        accountId: 'acc-A',
        accountName: 'Alpha Oncology',
        physicianId: 'phy-1',
        physicianName: 'Dr. One',
        patientId,
        patientName: PATIENT_NAME,
        submittedBy: { id: 'user-1', name: 'Dr. One' },
        submittedOn: new Date().toISOString(),
        createPdf: false,
        testOrders: [
          {
            id: `${requisitionId}-t1`,
            testOrderId: 'TO-AUDIT-1',
            testType: 'NEXT_DX',
            orderType: 'INITIAL_ORDER',
            status: 'TEST_ORDERED',
          },
        ],
        clinicalReviewStatus: 'NEEDS_REVIEW',
        icd10Codes: ['C34.90'],
        diagnosis: 'LUNG',
      },
    });
    // the requisition's state recorded: no case of it yet, nothing changed, nothing recorded
    const since = new Date();
    expect(await handleCaseEvent(billing, submitted)).toBe(false);
    const testOrderId = `${requisitionId}-t1`;
    const test = createEvent('test-status', {
      data: {
        testOrderId,
        testId: 'TO-AUDIT-1',
        requisitionId,
        testRequisitionId: 'TRF-AUDIT-1',
        accountId: 'acc-A',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        previousStatus: null,
        status: 'TEST_ORDERED',
        changedBy: { id: 'user-1', name: 'Lab One' },
        changedOn: new Date().toISOString(),
        dueOn: null,
        change: 'created',
        limsProjectId: null,
        report: null,
      },
    }) as EventEnvelope<'test-status'>;
    expect(await handleCaseEvent(billing, test)).toBe(true);
    const created = (await billing.BillingCase.findOne({ testOrderId }).lean<BillingCaseDoc>())!;
    expect(created.patient).toEqual({ id: patientId, name: PATIENT_NAME });

    const entries = await changesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      ...systemEntry({ id: created._id, patientId }),
      action: 'create',
      onBehalfOf: ['acc-A'],
    });
    expect(entries[0].changes).toEqual(
      expect.arrayContaining([
        'caseHistory',
        'caseStatus',
        'patient.id',
        'patient.name',
        'testOrderId',
        'testStatus',
      ]),
    );
    for (const bookkeeping of ['outbox', 'version', 'createdOn', 'updatedOn'])
      expect(entries[0].changes).not.toContain(bookkeeping);
    noPhi(entries);

    // the same event again (a redelivery): no second case, nothing recorded
    const again = new Date();
    expect(await handleCaseEvent(billing, test)).toBe(false);
    expect(await billing.BillingCase.countDocuments({ testOrderId })).toBe(1);
    expect(await changesSince(again)).toEqual([]);
  });
});
