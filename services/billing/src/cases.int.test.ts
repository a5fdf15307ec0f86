import { describe, expect, it } from 'vitest';
import { createEvent, type EventEnvelope } from '@onco/events';
import { ROLE_PERMISSIONS } from '@onco/domain';
import { SEARCH_TEXT_CONTROL_CHARACTER, type SessionUser } from '@onco/platform';
import { eventsIn, provider, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as RQ } from '@onco/requisitions/testing';
import { submitThroughApi } from '../../requisitions/test/submit';
import { setBillingReview, type RequisitionDeps } from '../../requisitions/src/use-cases';
import { requisitionModels } from '../../requisitions/src/models';
import { labModels, type LabModels } from '../../lab/src/models';
import { billingModels, upsertBillingSpecialists, type BillingCaseDoc, type BillingModels } from './models';
import { findCase } from './use-cases';
import { handleCaseEvent } from './consumers/cases';

/**
 * Billing cases from the lab's events and the billing actions (spec 3 sections 2.9, 4.3, 7.3), everything
 * running (relay, consumers, workers): a really submitted requisition, its test driven through the lab's API,
 * its billing review set by the requisitions service; every change a history entry and a billing-case event.
 */
describe('billing cases: from events, qualification and the actions API (real Kafka, the store, Redis)', () => {
  let billing: BillingModels;
  let lab: LabModels;
  let requisitions: RequisitionDeps;
  let adminUser: SessionUser;
  const BIS = '/bis/api/v1';

  const { sys, users, h, call, collector } = useTestSystem({
    kafka: true,
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab,billing' },
    prepare: async () => {
      billing = billingModels(sys.ctx.mongo);
      lab = labModels(sys.ctx.mongo);
      requisitions = { ctx: sys.ctx, models: requisitionModels(sys.ctx.mongo) };
    },
    collect: ['billing-case'],
    users: {
      npi: provider({ id: 'acc-A', name: 'Alpha' }, 'phy-A'),
      accessioner: 'ROLE_ACCESSIONER',
      admin: 'ROLE_ADMINISTRATOR',
      devops: 'ROLE_DEVOPS',
    },
    seed: async () => {
      adminUser = {
        id: users.admin._id,
        loginId: users.admin.loginId,
        firstName: 'Test',
        lastName: 'ADMINISTRATOR',
        role: 'ROLE_ADMINISTRATOR',
        status: 'ACTIVE',
        grantedAuthorities: ROLE_PERMISSIONS.ROLE_ADMINISTRATOR,
        accountIds: [],
        physicianIds: [],
        allAccounts: true,
        tokenVersion: 0,
      };
      await upsertBillingSpecialists(billing.BillingSpecialist, [
        { id: 'bs-1', name: 'Bea Biller', email: 'bea@billing.example.org' },
        { id: 'bs-2', name: 'Carl Coder', email: 'carl@billing.example.org' },
      ]);
      main = await submitOrder();
    },
  });
  const billingEvents = (caseId: string) => eventsIn(collector.messages, caseId);
  const caseOf = (testOrderId: string) =>
    billing.BillingCase.findOne({ testOrderId }).lean<BillingCaseDoc>().exec();
  const waitCase = (testOrderId: string, ok: (c: BillingCaseDoc) => boolean, what: string) =>
    waitFor(
      async () => {
        const c = await caseOf(testOrderId);
        return c && ok(c) ? c : null;
      },
      { what, timeoutMs: 45_000 },
    );

  /** A requisition really submitted through the API; returns its id and its test order's id. */
  async function submitOrder(): Promise<{ requisitionId: string; testOrderId: string }> {
    const form = completeForm({ accountId: 'acc-A', physicianId: 'phy-A' });
    const submitted = await submitThroughApi(sys, h.npi, form);
    return { requisitionId: submitted.id, testOrderId: submitted.testOrders[0].id };
  }
  const setTestStatus = async (testOrderId: string, status: string) => {
    const res = await call('POST', '/oms/api/v1/testOrders/updateTestsStatus', 'accessioner', {
      uuids: [testOrderId],
      status,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  let main: { requisitionId: string; testOrderId: string };
  let caseId = '';

  it('opens one case per test order, with the parties and names of the submission', async () => {
    const c = await waitCase(
      main.testOrderId,
      (x) => x.testStatus === 'TEST_ORDERED' && !!x.patient?.name,
      'the billing case with the requisition names',
    );
    caseId = c._id;
    const test = (await lab.TestOrder.findById(main.testOrderId).lean())!;
    expect(c).toMatchObject({
      testOrderId: main.testOrderId,
      testId: test.testOrderId,
      testOrderFormId: main.requisitionId,
      testRequisitionId: test.testOrderForm.testRequisitionId,
      account: { id: 'acc-A' },
      physician: { id: 'phy-A' },
      patient: { name: 'Ada Lovelace' },
      testType: 'NEXT_DX',
      caseStatus: 'NOT_SUBMITTED',
      // decision: not on requisition-submitted; null until the first billing-review change
      reviewStatus: null,
      caseQualifiedDate: null,
      // requisition-submitted v4: the billing summary and the ICD-10 codes, no demographics
      claimInfo: {
        billingType: 'SELF',
        payorId: null,
        payorName: null,
        patientAddressComplete: true,
        // requisition-submitted v5: nothing Medicare needs is missing (no Medicare, no NeXT Personal Dx)
        medicareDataMissing: [],
        diagnosisCodes: ['C34.90', 'Z85.118'],
      },
    });
    expect(await billing.BillingCase.countDocuments({ testOrderId: main.testOrderId })).toBe(1);
    expect(c.caseHistory.map((e) => e.status)).toEqual(['NOT_SUBMITTED']);
    expect(c.caseHistory[0]).toMatchObject({ by: 'system', byId: 'system' });
    const created = await waitFor(
      () => billingEvents(caseId).find((e) => e.data.previousStatus === null) ?? null,
      {
        what: 'the billing-case event of the new case',
        timeoutMs: 45_000,
      },
    );
    expect(created.data).toMatchObject({
      billingCaseId: caseId,
      testOrderId: main.testOrderId,
      requisitionId: main.requisitionId,
      caseStatus: 'NOT_SUBMITTED',
      changedBy: { id: 'system' },
    });
    // the list shows it
    const list = (await call('GET', `${BIS}/billingCases`, 'admin')).json();
    expect(list.content.map((x: any) => x.id)).toContain(caseId);
  });

  it('an edit of the billing (payor, address, ICD-10) reaches the case through requisition-changed v4', async () => {
    const order = await submitOrder();
    await waitCase(order.testOrderId, (c) => c.claimInfo?.billingType === 'SELF', 'the case of the order');
    const current = (await call('GET', `${RQ}/${order.requisitionId}`, 'admin')).json();
    const res = await call('PUT', `${RQ}/${order.requisitionId}`, 'admin', {
      ...current,
      billings: [
        {
          billingType: 'MEDICARE',
          preference: 'PRIMARY',
          insuranceProvider: 'Medicare Part B',
          payorId: 'MCR-B',
          policyNumber: '1EG4-TE5-MK72',
          relationshipToPatient: 'SELF',
        },
      ],
      patient: { ...current.patient, address: { ...current.patient.address, street: '' } },
      tumorSpecimen: { ...current.tumorSpecimen, icd10Codes: 'C50.911' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = await waitCase(
      order.testOrderId,
      (x) => x.claimInfo?.billingType === 'MEDICARE',
      'the case with the edited billing',
    );
    expect(c.claimInfo).toEqual({
      billingType: 'MEDICARE',
      payorId: 'MCR-B',
      payorName: 'Medicare Part B',
      patientAddressComplete: false,
      medicareDataMissing: [],
      diagnosisCodes: ['C50.911'],
    });
    // the requisition's own record of it: a billing-changed change, and no policy number on the event
    const req = await sys.ctx.mongo
      .collection('billing_requisitions')
      .findOne({ _id: order.requisitionId } as never);
    expect(req).toMatchObject({ billing: { billingType: 'MEDICARE' }, icd10Codes: ['C50.911'] });
    expect(JSON.stringify(req)).not.toContain('1EG4-TE5-MK72');
  });

  it('a redelivered test-status event makes no second case, and an older one changes nothing', async () => {
    const before = (await caseOf(main.testOrderId))!;
    const test = (await lab.TestOrder.findById(main.testOrderId).lean())!;
    const data = {
      testOrderId: main.testOrderId,
      testId: test.testOrderId!,
      requisitionId: main.requisitionId,
      testRequisitionId: test.testOrderForm.testRequisitionId!,
      accountId: 'acc-A',
      testType: 'NEXT_DX' as const,
      orderType: 'INITIAL_ORDER' as const,
      previousStatus: null,
      status: 'TEST_ORDERED' as const,
      changedBy: { id: 'x', name: 'x' },
      changedOn: new Date(before.testStatusChangedOn!).toISOString(),
      dueOn: null,
      change: 'created' as const,
      limsProjectId: null,
      report: null,
    };
    const event = createEvent('test-status', { data }) as EventEnvelope<'test-status'>;
    expect(await handleCaseEvent(billing, event)).toBe(false);
    const older = createEvent('test-status', {
      data: { ...data, status: 'CANCELLED', change: 'status', changedOn: '2000-01-01T00:00:00.000Z' },
    });
    expect(await handleCaseEvent(billing, older)).toBe(false);
    // the same event twice, concurrently, on a test order without a case: one case
    const fresh = { ...data, testOrderId: `to-redelivered-${sys.suffix}` };
    await Promise.all([
      handleCaseEvent(billing, createEvent('test-status', { data: fresh })),
      handleCaseEvent(billing, createEvent('test-status', { data: fresh })),
    ]);
    expect(await billing.BillingCase.countDocuments({ testOrderId: fresh.testOrderId })).toBe(1);
    expect(await billing.BillingCase.countDocuments({ testOrderId: main.testOrderId })).toBe(1);
    const after = (await caseOf(main.testOrderId))!;
    expect(after.version).toBe(before.version);
    expect(after.caseStatus).toBe('NOT_SUBMITTED');
  });

  it('GET /billingCases/{id} needs VIEW_BILLING_PAGE, gives the history newest first, 404 when unknown', async () => {
    expect((await call('GET', `${BIS}/billingCases/${caseId}`, 'npi')).statusCode).toBe(403);
    const res = await call('GET', `${BIS}/billingCases/${caseId}`, 'devops');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: caseId, caseStatus: 'NOT_SUBMITTED' });
    expect(res.json()).not.toHaveProperty('outbox');
    expect((await call('GET', `${BIS}/billingCases/nope`, 'admin')).statusCode).toBe(404);
    // the data scope: a user of another account does not find it (every action reads through findCase)
    const scoped = { ...adminUser, allAccounts: false, accountIds: ['acc-Z'], physicianIds: [] };
    await expect(findCase({ models: billing }, scoped, caseId)).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      findCase({ models: billing }, { ...scoped, accountIds: ['acc-A'] }, caseId),
    ).resolves.toMatchObject({
      _id: caseId,
    });
  });

  it('refuses the actions without their permissions (403), changing nothing', async () => {
    const v = (await caseOf(main.testOrderId))!.version;
    expect((await call('POST', `${BIS}/billing/${caseId}/billingCode/81455`, 'devops')).statusCode).toBe(403);
    expect((await call('POST', `${BIS}/billing/assign/bs-1`, 'devops', [caseId])).statusCode).toBe(403);
    expect((await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'devops', [caseId])).statusCode).toBe(
      403,
    );
    expect((await call('POST', `${BIS}/billing/${caseId}/timePoint/T1`, 'npi')).statusCode).toBe(403);
    expect((await call('GET', `${BIS}/billingSpecialists?q=bea`, 'npi')).statusCode).toBe(403);
    expect((await caseOf(main.testOrderId))!.version).toBe(v);
  });

  it('follows the test status, and qualifies when the report, the billing review and the code are there', async () => {
    await setTestStatus(main.testOrderId, 'IN_PROGRESS');
    await waitCase(main.testOrderId, (c) => c.testStatus === 'IN_PROGRESS', 'the case following IN_PROGRESS');
    await setTestStatus(main.testOrderId, 'REPORT_COMPLETE');
    await waitCase(
      main.testOrderId,
      (c) => c.testStatus === 'REPORT_COMPLETE',
      'the case following the report',
    );
    expect((await caseOf(main.testOrderId))!.caseStatus).toBe('NOT_SUBMITTED');

    // the billing review (requisitions service): requisition-changed v3 billing-review-changed
    await setBillingReview(requisitions, adminUser, main.requisitionId, 'REVIEW_COMPLETE');
    await waitCase(
      main.testOrderId,
      (c) => c.reviewStatus === 'REVIEW_COMPLETE',
      'the billing review on the case',
    );
    expect((await caseOf(main.testOrderId))!.caseStatus).toBe('NOT_SUBMITTED');

    // Update Billing Code: a history entry, and the case qualifies in the same write
    const res = await call('POST', `${BIS}/billing/${caseId}/billingCode/81455`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ billingCode: '81455', caseStatus: 'READY_TO_SUBMIT' });
    expect(res.json().caseQualifiedDate).toBeTruthy();
    expect(res.json().caseHistory[0].status).toBe('READY_TO_SUBMIT');
    // the entry says who changed what (beyond the spec's fields: docs/decisions.md "Billing cases")
    expect(res.json().caseHistory[0]).toMatchObject({
      by: 'Test ADMINISTRATOR',
      changes: [{ field: 'billingCode', from: null, to: '81455' }],
    });
    const ev = await waitFor(
      () => billingEvents(caseId).find((e) => e.data.caseStatus === 'READY_TO_SUBMIT') ?? null,
      { what: 'the billing-case event of the qualification', timeoutMs: 45_000 },
    );
    expect(ev.data).toMatchObject({ previousStatus: 'NOT_SUBMITTED', billingCode: '81455' });
    expect(ev.data.changedBy.id).not.toBe('system');

    // the review reopened: the case is no longer ready
    await setBillingReview(requisitions, adminUser, main.requisitionId, 'NEEDS_ATTENTION');
    await waitCase(main.testOrderId, (c) => c.caseStatus === 'NOT_SUBMITTED', 'the case dequalified');
    expect((await caseOf(main.testOrderId))!.caseQualifiedDate).toBeNull();
    await setBillingReview(requisitions, adminUser, main.requisitionId, 'REVIEW_COMPLETE');
    await waitCase(main.testOrderId, (c) => c.caseStatus === 'READY_TO_SUBMIT', 'the case qualified again');
    const history = (await call('GET', `${BIS}/billingCases/${caseId}`, 'admin')).json().caseHistory;
    expect(history.map((e: any) => e.status).slice(0, 3)).toEqual([
      'READY_TO_SUBMIT',
      'NOT_SUBMITTED',
      'READY_TO_SUBMIT',
    ]);
    expect(history.at(-1).status).toBe('NOT_SUBMITTED');
    // what the lab's events did to the case is the system's, with nothing else changed
    expect(history[1]).toMatchObject({ status: 'NOT_SUBMITTED', by: 'system' });
    expect(history[1].changes).toBeUndefined();
  });

  it('refuses a bad billing code (400) and searches the specialists with 2+ characters', async () => {
    expect(
      (await call('POST', `${BIS}/billing/${caseId}/billingCode/${encodeURIComponent('81 4')}`, 'admin'))
        .statusCode,
    ).toBe(400);
    expect((await call('GET', `${BIS}/billingSpecialists?q=b`, 'admin')).statusCode).toBe(400);
    const found = (await call('GET', `${BIS}/billingSpecialists?q=BEA`, 'admin')).json();
    expect(found.content).toEqual([{ id: 'bs-1', name: 'Bea Biller', email: 'bea@billing.example.org' }]);
    const byMail = (await call('GET', `${BIS}/billingSpecialists?q=billing.example`, 'devops')).json();
    expect(byMail.content.map((s: any) => s.name)).toEqual(['Bea Biller', 'Carl Coder']);
  });

  it('a specialist search with a NUL (any control character) is a 400 naming q, not a 500', async () => {
    for (const q of [encodeURIComponent('be\u0000a'), 'be%00a', encodeURIComponent('be\u0001a')]) {
      const res = await call('GET', `${BIS}/billingSpecialists?q=${q}`, 'admin');
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message: SEARCH_TEXT_CONTROL_CHARACTER, details: { field: 'q' } });
    }
  });

  it('Assign Billing User: all or none, each case a history entry and an event', async () => {
    const other = await submitOrder();
    const second = await waitCase(other.testOrderId, () => true, 'the second case');
    // one unknown id: 404, nothing changes
    const bad = await call('POST', `${BIS}/billing/assign/bs-1`, 'admin', [caseId, second._id, 'nope']);
    expect(bad.statusCode).toBe(404);
    expect((await caseOf(main.testOrderId))!.assignee).toBeNull();
    expect((await caseOf(other.testOrderId))!.assignee).toBeNull();
    expect((await call('POST', `${BIS}/billing/assign/no-such`, 'admin', [caseId])).statusCode).toBe(404);
    expect((await call('POST', `${BIS}/billing/assign/bs-1`, 'admin', [])).statusCode).toBe(400);

    const before = (await caseOf(main.testOrderId))!.caseHistory.length;
    const ok = await call('POST', `${BIS}/billing/assign/bs-1`, 'admin', [caseId, second._id]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().map((c: any) => c.assignee)).toEqual([
      { id: 'bs-1', name: 'Bea Biller' },
      { id: 'bs-1', name: 'Bea Biller' },
    ]);
    expect((await caseOf(main.testOrderId))!.caseHistory).toHaveLength(before + 1);
    expect(ok.json()[1].caseHistory[0]).toMatchObject({
      by: 'Test ADMINISTRATOR',
      changes: [{ field: 'assignee', from: null, to: 'Bea Biller' }],
    });
    await waitFor(
      () => (billingEvents(second._id).some((e) => e.data.previousStatus !== null) ? true : null),
      {
        what: 'the assign event of the second case',
        timeoutMs: 45_000,
      },
    );
    const facets = (
      await call('GET', `${BIS}/billingCases/facets?facets=assignee_name_facet`, 'admin')
    ).json();
    expect(facets.content[0].items).toEqual([{ value: 'Bea Biller', count: 2 }]);

    // two specialists of one name: moving a case between them is a change (compared by id), by this user (id)
    await upsertBillingSpecialists(billing.BillingSpecialist, [
      { id: 'bs-3', name: 'Bea Biller', email: 'bea.two@billing.example.org' },
    ]);
    const same = await call('POST', `${BIS}/billing/assign/bs-3`, 'admin', [caseId]);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()[0].caseHistory[0]).toMatchObject({
      by: 'Test ADMINISTRATOR',
      byId: String(adminUser.id),
      changes: [{ field: 'assignee', from: 'Bea Biller', to: 'Bea Biller' }],
    });
    expect((await call('POST', `${BIS}/billing/assign/bs-1`, 'admin', [caseId])).statusCode).toBe(200);
  });

  it('Update Billing Status: only PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION to FIXED_IN_XIFIN, all or none', async () => {
    const other = (await billing.BillingCase.findOne({
      testOrderId: { $ne: main.testOrderId },
      'assignee.id': 'bs-1',
    })
      .lean<BillingCaseDoc>()
      .exec())!;
    // the submission's outcomes, set as the submission worker would
    await billing.BillingCase.updateOne(
      { _id: caseId },
      { $set: { caseStatus: 'PARTIALLY_ACCEPTED' } },
    ).exec();
    await billing.BillingCase.updateOne(
      { _id: other._id },
      { $set: { caseStatus: 'REJECTED_BY_XIFIN' } },
    ).exec();

    const refused = await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [caseId, other._id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details.refused).toEqual({
      [other._id]: expect.stringMatching(/REJECTED_BY_XIFIN/),
    });
    expect((await caseOf(main.testOrderId))!.caseStatus).toBe('PARTIALLY_ACCEPTED');
    expect((await call('PUT', `${BIS}/billing/status/ACCEPTED_BY_XIFIN`, 'admin', [caseId])).statusCode).toBe(
      409,
    );
    expect((await call('PUT', `${BIS}/billing/status/NOPE`, 'admin', [caseId])).statusCode).toBe(400);
    expect(
      (await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [caseId, 'nope'])).statusCode,
    ).toBe(404);

    const ok = await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [caseId]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()[0]).toMatchObject({ caseStatus: 'FIXED_IN_XIFIN' });
    expect(ok.json()[0].caseHistory[0].status).toBe('FIXED_IN_XIFIN');
    const ev = await waitFor(
      () => billingEvents(caseId).find((e) => e.data.caseStatus === 'FIXED_IN_XIFIN') ?? null,
      { what: 'the FIXED_IN_XIFIN event', timeoutMs: 45_000 },
    );
    expect(ev.data.previousStatus).toBe('PARTIALLY_ACCEPTED');
  });

  it('BILLING_COMPLETE, ON_HOLD_EXTERNAL and RETIRED_FROM_BILLING: a reason each, kept in the history; closed stays closed', async () => {
    // caseId is FIXED_IN_XIFIN (the test above)
    const noReason = await call('PUT', `${BIS}/billing/status/BILLING_COMPLETE`, 'admin', [caseId]);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('A reason is required to set Billing Status to BILLING_COMPLETE.');
    expect((await caseOf(main.testOrderId))!.caseStatus).toBe('FIXED_IN_XIFIN');
    const blank = await call('PUT', `${BIS}/billing/status/BILLING_COMPLETE`, 'admin', {
      ids: [caseId],
      reason: '  ',
    });
    expect(blank.statusCode).toBe(400);

    const done = await call('PUT', `${BIS}/billing/status/BILLING_COMPLETE`, 'admin', {
      ids: [caseId],
      reason: 'Paid in full (EOB 2026-11-20)',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()[0].caseHistory[0]).toMatchObject({
      status: 'BILLING_COMPLETE',
      reason: 'Paid in full (EOB 2026-11-20)',
    });
    const ev = await waitFor(
      () => billingEvents(caseId).find((e) => e.data.caseStatus === 'BILLING_COMPLETE') ?? null,
      { what: 'the BILLING_COMPLETE event', timeoutMs: 45_000 },
    );
    expect(ev.data.previousStatus).toBe('FIXED_IN_XIFIN');
    // closed: neither retired nor held afterwards, and nothing changes
    const closed = await call('PUT', `${BIS}/billing/status/RETIRED_FROM_BILLING`, 'admin', {
      ids: [caseId],
      reason: 'x',
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(
      'Billing Status cannot be set to RETIRED_FROM_BILLING from BILLING_COMPLETE.',
    );

    // another case: held while the payor decides, then retired
    const other = (await billing.BillingCase.findOne({
      testOrderId: { $ne: main.testOrderId },
      deleted: false,
    })
      .lean<BillingCaseDoc>()
      .exec())!;
    await billing.BillingCase.updateOne(
      { _id: other._id },
      { $set: { caseStatus: 'REJECTED_BY_XIFIN' } },
    ).exec();
    const held = await call('PUT', `${BIS}/billing/status/ON_HOLD_EXTERNAL`, 'admin', {
      ids: [other._id],
      reason: 'Payor reviewing medical necessity',
    });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()[0]).toMatchObject({ caseStatus: 'ON_HOLD_EXTERNAL' });
    const retired = await call('PUT', `${BIS}/billing/status/RETIRED_FROM_BILLING`, 'admin', {
      ids: [other._id],
      reason: 'Research order, not billable',
    });
    expect(retired.statusCode, retired.body).toBe(200);
    const history = (await call('GET', `${BIS}/billingCases/${other._id}`, 'admin')).json().caseHistory;
    expect(history.slice(0, 2).map((e: any) => [e.status, e.reason])).toEqual([
      ['RETIRED_FROM_BILLING', 'Research order, not billable'],
      ['ON_HOLD_EXTERNAL', 'Payor reviewing medical necessity'],
    ]);
    // the legacy body (an array of ids) still works for FIXED_IN_XIFIN, which needs no reason
    expect((await call('PUT', `${BIS}/billing/status/FIXED_IN_XIFIN`, 'admin', [other._id])).statusCode).toBe(
      409,
    );
    // (the next tests use that case as it was)
    await billing.BillingCase.updateOne(
      { _id: other._id },
      { $set: { caseStatus: other.caseStatus } },
    ).exec();
  });

  it('Update Timepoint: only a reported subsequent order, with a history entry', async () => {
    const other = (await billing.BillingCase.findOne({
      testOrderId: { $ne: main.testOrderId },
      'assignee.id': 'bs-1',
    })
      .lean<BillingCaseDoc>()
      .exec())!;
    // an initial order: refused
    expect((await call('POST', `${BIS}/billing/${other._id}/timePoint/T2`, 'admin')).statusCode).toBe(409);
    await billing.BillingCase.updateOne(
      { _id: other._id },
      { $set: { orderType: 'SUBSEQUENT_ORDER', testStatus: 'REPORT_AMENDED' } },
    ).exec();
    const before = (await billing.BillingCase.findById(other._id).lean<BillingCaseDoc>())!.caseHistory.length;
    const ok = await call('POST', `${BIS}/billing/${other._id}/timePoint/T2`, 'admin');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ timePoint: 'T2' });
    expect(ok.json().caseHistory).toHaveLength(before + 1);
    expect(ok.json().caseHistory[0].changes).toEqual([{ field: 'timePoint', from: null, to: 'T2' }]);
    // the same timepoint again: an entry (the action was taken) that changed nothing
    const again = await call('POST', `${BIS}/billing/${other._id}/timePoint/T2`, 'admin');
    expect(again.json().caseHistory).toHaveLength(before + 2);
    expect(again.json().caseHistory[0].changes).toBeUndefined();
    expect((await call('POST', `${BIS}/billing/nope/timePoint/T2`, 'admin')).statusCode).toBe(404);
  });

  it('cancels the case of a cancelled test and of a deleted requisition', async () => {
    const third = await submitOrder();
    await waitCase(third.testOrderId, () => true, 'the third case');
    await setTestStatus(third.testOrderId, 'CANCELLED');
    const c = await waitCase(third.testOrderId, (x) => x.caseStatus === 'CANCELLED', 'the cancelled case');
    expect(c.caseHistory.map((e) => e.status)).toEqual(['NOT_SUBMITTED', 'CANCELLED']);
    // the requisition deleted (every test cancelled): the case stays cancelled, the state is recorded
    await waitFor(
      async () => {
        const r = (await call('GET', `${RQ}/${third.requisitionId}`, 'admin')).json();
        return r.testOrders?.every((t: any) => t.status === 'CANCELLED') ? r : null;
      },
      { what: 'the requisition projection of the cancelled test', timeoutMs: 45_000 },
    );
    const del = await call('PUT', `${RQ}/${third.requisitionId}`, 'admin', { deleted: true });
    expect(del.statusCode, del.body).toBe(200);
    await waitFor(
      async () =>
        (await billing.BillingRequisition.findById(third.requisitionId).lean())?.deleted ? true : null,
      { what: 'the deleted requisition recorded', timeoutMs: 45_000 },
    );
    expect((await caseOf(third.testOrderId))!.caseHistory).toHaveLength(2);
    // a case opened after the deletion arrived (another topic, no ordering): cancelled at once
    const test = (await lab.TestOrder.findById(third.testOrderId).lean())!;
    const late = createEvent('test-status', {
      data: {
        testOrderId: `to-late-${sys.suffix}`,
        testId: 'T-late',
        requisitionId: third.requisitionId,
        testRequisitionId: test.testOrderForm.testRequisitionId!,
        accountId: 'acc-A',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        previousStatus: null,
        status: 'TEST_ORDERED',
        changedBy: { id: 'x', name: 'x' },
        changedOn: new Date().toISOString(),
        dueOn: null,
        change: 'created',
        limsProjectId: null,
        report: null,
      },
    });
    await handleCaseEvent(billing, late);
    // a merged test (TRF merge, test-status change `merged`): cancelled, even with its report kept
    const merged = (await caseOf(`to-redelivered-${sys.suffix}`))!;
    await handleCaseEvent(
      billing,
      createEvent('test-status', {
        data: {
          ...late.data,
          testOrderId: merged.testOrderId,
          requisitionId: merged.testOrderFormId!,
          status: 'REPORT_COMPLETE',
          change: 'merged',
          changedOn: new Date().toISOString(),
        },
      }),
    );
    expect((await caseOf(merged.testOrderId))!.caseStatus).toBe('CANCELLED');
    expect((await caseOf(`to-late-${sys.suffix}`))!).toMatchObject({
      caseStatus: 'CANCELLED',
      patient: { name: 'Ada Lovelace' },
      caseHistory: [{ status: 'CANCELLED' }],
    });
  });
});
