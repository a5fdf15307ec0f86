import { describe, expect, it } from 'vitest';
import { eventsIn, multipart, provider, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, medicareWithoutPolicyNumber } from '@onco/requisitions/testing';
import { submitToLab } from '../test/submit';
import { createLabModule, type LabModule } from './index';

/**
 * The lab's test actions on a really submitted order, everything running (relay, consumers): Update Status,
 * Update Due Date and LIMS Project # each append a history entry and publish a test-status event (schemaVersion
 * 2) through the outbox; the requisition's test summary and the dashboard follow the event; the rules and the
 * scope are the server's.
 */
describe('test actions: status, due date, LIMS project (real Kafka, the store, Redis)', () => {
  let lab: LabModule;
  let requisitionId = '';
  let testId = '';

  const { sys, h, call, collector } = useTestSystem({
    kafka: true,
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab,billing' },
    collect: ['test-status'],
    users: {
      npi: provider({ id: 'acc-A', name: 'Alpha' }, 'phy-A'),
      other: provider({ id: 'acc-B', name: 'Beta' }, 'phy-B'),
      accessioner: 'ROLE_ACCESSIONER',
      portal: 'ROLE_PORTAL_ADMIN',
    },
    seed: async () => {
      lab = createLabModule(sys.ctx);
      const submitted = await submitToLab(
        sys,
        lab.models,
        h.npi,
        completeForm({ accountId: 'acc-A', physicianId: 'phy-A' }),
      );
      requisitionId = submitted.id;
      testId = submitted.testOrders[0].id;
    },
  });
  const API = '/oms/api/v1/testOrders';
  const today = () => new Date().toISOString().slice(0, 10);
  const addDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const eventsOf = (id: string) => eventsIn(collector.messages, id);

  it('shows one test with its history to a provider in scope, 404 outside the scope', async () => {
    const res = await call('GET', `${API}/${testId}`, 'npi');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: testId,
      status: 'TEST_ORDERED',
      testOrderForm: { id: requisitionId },
    });
    expect(res.json().testHistories).toHaveLength(1);
    expect(res.json()).not.toHaveProperty('outbox');
    expect((await call('GET', `${API}/${testId}`, 'other')).statusCode).toBe(404);
    expect((await call('GET', `${API}/no-such-test`, 'accessioner')).statusCode).toBe(404);
  });

  it('refuses the lab actions to a provider (403) and changes nothing', async () => {
    expect(
      (await call('POST', `${API}/updateTestsStatus`, 'npi', { uuids: [testId], status: 'IN_PROGRESS' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${API}/updateDueDate`, 'npi', { uuid: testId, dueOn: today() })).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `${API}/updateLimsProjectId`, 'accessioner', {
          uuid: testId,
          limsProjectId: 'LP-1',
        })
      ).statusCode,
    ).toBe(403);
    expect((await lab.models.TestOrder.findById(testId).lean())!.testHistories).toHaveLength(1);
  });

  it('Update Status appends a history entry, publishes test-status v2, and the requisition and dashboard follow', async () => {
    const res = await call('POST', `${API}/updateTestsStatus`, 'accessioner', {
      uuids: [testId],
      status: 'IN_PROGRESS',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ id: testId, status: 'IN_PROGRESS' });
    const doc = (await lab.models.TestOrder.findById(testId).lean())!;
    expect(doc.testHistories.map((x) => x.status)).toEqual(['TEST_ORDERED', 'IN_PROGRESS']);
    expect(doc.testHistories[1]).toMatchObject({ change: 'status', by: { name: expect.any(String) } });

    const event = await waitFor(() => eventsOf(testId).find((e) => e.data.status === 'IN_PROGRESS') ?? null, {
      what: 'the test-status event',
      timeoutMs: 45_000,
    });
    expect(event.schemaVersion).toBe(2);
    expect(event.data).toMatchObject({
      testOrderId: testId,
      requisitionId,
      previousStatus: 'TEST_ORDERED',
      status: 'IN_PROGRESS',
      change: 'status',
      accountId: 'acc-A',
    });
    // the requisitions service projects it: the order summary and the orders list show the new status
    await waitFor(
      async () => {
        const r = (await call('GET', `/portal/api/v1/testOrderForms/${requisitionId}`, 'npi')).json();
        return r.testOrders?.find((t: any) => t.id === testId)?.status === 'IN_PROGRESS' ? r : null;
      },
      { what: 'the requisition projection', timeoutMs: 30_000 },
    );
    const dash = (await call('GET', '/portal/api/v1/dashboard', 'npi')).json();
    expect(dash.testStatus.IN_PROGRESS).toBe(1);
    expect(dash.testStatus.TEST_ORDERED).toBe(0);
  });

  it('refuses the same working status again and TEST_SELECTED, changing nothing', async () => {
    const again = await call('POST', `${API}/updateTestsStatus`, 'accessioner', {
      uuids: [testId],
      status: 'IN_PROGRESS',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already IN_PROGRESS/);
    const selected = await call('POST', `${API}/updateTestsStatus`, 'accessioner', {
      uuids: [testId],
      status: 'TEST_SELECTED',
    });
    expect(selected.statusCode).toBe(409);
    // one unknown id in the selection: 404 and the known one is not changed either
    const mixed = await call('POST', `${API}/updateTestsStatus`, 'accessioner', {
      uuids: [testId, 'nope'],
      status: 'CANCELLED',
    });
    expect(mixed.statusCode).toBe(404);
    expect((await lab.models.TestOrder.findById(testId).lean())!.status).toBe('IN_PROGRESS');
    expect((await lab.models.TestOrder.findById(testId).lean())!.testHistories).toHaveLength(2);
  });

  it('Update Due Date: at most 30 days ahead, None removes it; each is a history entry and an event', async () => {
    const late = await call('POST', `${API}/updateDueDate`, 'accessioner', {
      uuid: testId,
      dueOn: addDays(31),
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('The due date can be at most 30 days from today.');
    const ok = await call('POST', `${API}/updateDueDate`, 'accessioner', {
      uuid: testId,
      dueOn: addDays(30),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().dueOn).toBe(addDays(30));
    await waitFor(
      () =>
        eventsOf(testId).find((e) => e.data.change === 'due-date' && e.data.dueOn === addDays(30)) ?? null,
      { what: 'the due-date event', timeoutMs: 45_000 },
    );
    const none = await call('POST', `${API}/updateDueDate`, 'accessioner', { uuid: testId, dueOn: null });
    expect(none.json().dueOn).toBeNull();
    const doc = (await lab.models.TestOrder.findById(testId).lean())!;
    expect(doc.testHistories.filter((x) => x.change === 'due-date').map((x) => x.detail)).toEqual([
      addDays(30),
      null,
    ]);
    expect(doc.status).toBe('IN_PROGRESS');
  });

  it('LIMS Project #: portal administrators only, non-empty', async () => {
    const empty = await call('POST', `${API}/updateLimsProjectId`, 'portal', {
      uuid: testId,
      limsProjectId: '  ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('LIMS Project # is required.');
    const ok = await call('POST', `${API}/updateLimsProjectId`, 'portal', {
      uuid: testId,
      limsProjectId: 'LP-2026-7',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().limsProjectId).toBe('LP-2026-7');
    await waitFor(
      () =>
        eventsOf(testId).find(
          (e) => e.data.change === 'lims-project' && e.data.limsProjectId === 'LP-2026-7',
        ) ?? null,
      { what: 'the lims-project event', timeoutMs: 45_000 },
    );
  });

  it('the order timeline lists the submission and every test change in time order, scoped', async () => {
    const url = `/portal/api/v1/testOrderForms/${requisitionId}/timeline`;
    const body = await waitFor(
      async () => {
        const res = await call('GET', url, 'accessioner');
        const kinds = (res.json().content ?? []).map((e: any) => `${e.family}:${e.kind}`);
        return ['lims-project', 'due-date'].every((k) => kinds.includes(`test-status:${k}`))
          ? res.json()
          : null;
      },
      { what: 'the timeline entries', timeoutMs: 45_000 },
    );
    // the order's own and its test's entries; the billing case's are billing staff's: a provider or an
    // accessioner (no VIEW_BILLING_PAGE) gets none, a portal administrator gets them on the same timeline
    const mine = body.content.filter((e: any) => ['requisition-submitted', 'test-status'].includes(e.family));
    expect(body.content.filter((e: any) => e.family === 'billing-case')).toEqual([]);
    // a provider sees neither the due dates nor the LIMS project (VIEW_TESTORDER_DUEDATE, VIEW_LIMS_INFORMATION)
    const provider = (await call('GET', url, 'npi')).json().content;
    expect(
      provider
        .filter((e: any) => ['requisition-submitted', 'test-status'].includes(e.family))
        .map((e: any) => `${e.family}:${e.kind}`),
    ).toEqual(['requisition-submitted:submitted', 'test-status:created', 'test-status:status']);
    for (const e of provider) expect(e.data ?? {}).not.toHaveProperty('dueOn');
    for (const e of provider) expect(e.data ?? {}).not.toHaveProperty('limsProjectId');
    const billing = await waitFor(
      async () => {
        const all = (await call('GET', url, 'portal')).json().content ?? [];
        const rows = all.filter((e: any) => e.family === 'billing-case');
        return rows.length ? rows : null;
      },
      { what: "the billing case's timeline entries", timeoutMs: 45_000 },
    );
    expect(billing.map((e: any) => e.kind)[0]).toBe('created');
    expect(mine.map((e: any) => `${e.family}:${e.kind}`)).toEqual([
      'requisition-submitted:submitted',
      'test-status:created',
      'test-status:status',
      'test-status:due-date',
      'test-status:due-date',
      'test-status:lims-project',
    ]);
    const times = body.content.map((e: any) => +new Date(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(mine[2]).toMatchObject({
      testOrderId: testId,
      data: { previousStatus: 'TEST_ORDERED', status: 'IN_PROGRESS' },
    });
    expect((await call('GET', url, 'other')).statusCode).toBe(404);
  });

  it('due date, duration and LIMS project never reach a user without their permissions (spec 2 section 6)', async () => {
    const set = await call('POST', `${API}/updateDueDate`, 'accessioner', {
      uuid: testId,
      dueOn: addDays(7),
    });
    expect(set.statusCode, set.body).toBe(200);
    await lab.models.TestOrder.updateOne({ _id: testId }, { $set: { testDuration: 4 } });
    const form = `/portal/api/v1/testOrderForms/${requisitionId}`;
    // the requisition's test summary follows the test-status event
    await waitFor(
      async () =>
        (await call('GET', form, 'accessioner')).json().testOrders?.[0]?.dueOn === addDays(7) ? true : null,
      { what: "the requisition's test summary with the due date", timeoutMs: 45_000 },
    );
    const bound = ['dueOn', 'testDuration', 'limsProjectId'];
    const list = (who: 'npi' | 'accessioner', qs = '') =>
      call(
        'GET',
        `${API}?filter=${encodeURIComponent(JSON.stringify({ testOrderFormId: requisitionId }))}${qs}`,
        who,
      );

    // the lab sees them: list, detail, history
    const staff = (await list('accessioner')).json().content[0];
    expect(staff).toMatchObject({ limsProjectId: 'LP-2026-7', testDuration: 4 });
    expect(staff.dueOn).toBeTruthy();
    const staffDetail = (await call('GET', `${API}/${testId}`, 'accessioner')).json();
    expect(staffDetail).toMatchObject({ dueOn: addDays(7), limsProjectId: 'LP-2026-7', testDuration: 4 });
    expect(staffDetail.testHistories.some((x: any) => x.change === 'due-date')).toBe(true);

    // a provider (none of the three permissions): not in the rows, the detail or the history
    const row = (await list('npi')).json().content[0];
    expect(row.id).toBe(testId);
    for (const f of bound) expect(row).not.toHaveProperty(f);
    const detail = (await call('GET', `${API}/${testId}`, 'npi')).json();
    for (const f of bound) expect(detail).not.toHaveProperty(f);
    expect(detail.testHistories.map((x: any) => x.change)).not.toContain('due-date');
    expect(detail.testHistories.map((x: any) => x.change)).not.toContain('lims-project');
    expect(JSON.stringify(detail)).not.toContain('LP-2026-7');

    // nor can the query disclose them: filtering or sorting by one is refused, q does not search it
    const byDue = await list('npi', `&sort=${encodeURIComponent('dueOn,DESC')}`);
    expect(byDue.statusCode).toBe(403);
    expect(byDue.json().message).toBe('Only users with VIEW_TESTORDER_DUEDATE may filter or sort by dueOn.');
    const byLims = await call(
      'GET',
      `${API}?filter=${encodeURIComponent(JSON.stringify({ limsProjectId: 'LP-2026-7' }))}`,
      'npi',
    );
    expect(byLims.statusCode).toBe(403);
    const q = `&q=${encodeURIComponent('LP-2026-7')}`;
    expect((await list('npi', q)).json().totalElements).toBe(0);
    expect((await list('accessioner', q)).json().totalElements).toBe(1);

    // the order: its test summaries' due dates and its LIMS project ids
    const order = (await call('GET', form, 'npi')).json();
    expect(order.testOrders[0]).not.toHaveProperty('dueOn');
    expect(order).not.toHaveProperty('limsProjectIds');
    expect((await call('GET', form, 'accessioner')).json()).toHaveProperty('limsProjectIds');

    // the orders CSV: a mapping naming a withheld field gets an empty column
    const mapping = encodeURIComponent(
      JSON.stringify([
        ['testRequisitionId', 'TRF'],
        ['testOrders.0.dueOn', 'Due'],
      ]),
    );
    const csv = (who: 'npi' | 'accessioner') =>
      call(
        'GET',
        `/portal/api/v1/testOrderForms/export?filter=${encodeURIComponent(JSON.stringify({ id: requisitionId }))}&mapping=${mapping}`,
        who,
      );
    const providerCsv = await csv('npi');
    expect(providerCsv.statusCode, providerCsv.body).toBe(200);
    expect(providerCsv.body.trim().split('\r\n')[1]).toMatch(/,$/);
    expect((await csv('accessioner')).body).toContain(addDays(7));

    // the samples tab lists the order's tests without their LIMS project
    const samples = (who: 'npi' | 'accessioner') =>
      call('GET', `/oms/api/v1/testOrderForms/${requisitionId}/samples`, who);
    expect((await samples('npi')).json().requisition.testOrders[0]).not.toHaveProperty('limsProjectId');
    expect((await samples('accessioner')).json().requisition.testOrders[0].limsProjectId).toBe('LP-2026-7');
  });

  it('clinical review: reviewers only, each change on the timeline; DISQUALIFIED removes the due dates', async () => {
    const form = `/portal/api/v1/testOrderForms/${requisitionId}`;
    const dueBefore = (await lab.models.TestOrder.findById(testId).lean())!.dueOn;
    expect(dueBefore).toBeTruthy(); // set by the test before
    // a provider (no CAN_REVIEW_DIAGNOSIS): refused, through the review route and through a save alike
    const refused = await call('PUT', `${form}/clinicalReview`, 'npi', { status: 'REVIEW_COMPLETE' });
    expect(refused.statusCode).toBe(403);
    const saved = await call('PUT', form, 'npi', { clinicalReviewStatus: 'REVIEW_COMPLETE' });
    expect(saved.statusCode).toBe(403);
    expect(saved.json().message).toBe(
      'Only users with CAN_REVIEW_DIAGNOSIS may change the clinical review status.',
    );
    expect((await call('GET', form, 'npi')).json().clinicalReviewStatus).toBeNull();

    const review = (status: string) => call('PUT', `${form}/clinicalReview`, 'accessioner', { status });
    const open = await review('NEEDS_REVIEW');
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().clinicalReviewStatus).toBe('NEEDS_REVIEW');
    const dq = await review('DISQUALIFIED');
    expect(dq.json().clinicalReviewStatus).toBe('DISQUALIFIED');
    // the same status again changes nothing
    expect((await review('DISQUALIFIED')).json().version).toBe(dq.json().version);

    // the lab follows: the review status on the test, its due date removed with a history entry saying why
    const test = await waitFor(
      async () => {
        const d = await lab.models.TestOrder.findById(testId).lean();
        return d && d.dueOn === null && d.testOrderForm.reviewStatus === 'DISQUALIFIED' ? d : null;
      },
      { what: 'the test following DISQUALIFIED', timeoutMs: 45_000 },
    );
    expect(test.testHistories.at(-1)).toMatchObject({
      change: 'due-date',
      detail: null,
      by: { name: 'Clinical review (DISQUALIFIED)' },
    });
    // the order's timeline: each change, from → to, whoever reads it
    const changes = await waitFor(
      async () => {
        const rows = ((await call('GET', `${form}/timeline`, 'npi')).json().content ?? []).filter(
          (e: any) => e.kind === 'clinical-review-changed',
        );
        return rows.length === 2 ? rows : null;
      },
      { what: 'the clinical review entries on the timeline', timeoutMs: 45_000 },
    );
    expect(
      changes.map((e: any) => [e.data.previousClinicalReviewStatus, e.data.clinicalReviewStatus]),
    ).toEqual([
      [null, 'NEEDS_REVIEW'],
      ['NEEDS_REVIEW', 'DISQUALIFIED'],
    ]);
    expect(changes[1].by.id).toBeTruthy();
  });

  it('Review Complete on billing is refused while the Medicare data or the primary billing is incomplete', async () => {
    const form = `/portal/api/v1/testOrderForms/${requisitionId}`;
    const billing = (status: string) => call('PUT', `${form}/billingReview`, 'portal', { status });
    // make the billing Medicare with no policy number (the lab's edit of a submitted order)
    const edit = await call('PUT', form, 'portal', {
      billings: [medicareWithoutPolicyNumber()],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const refused = await billing('REVIEW_COMPLETE');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details.reasons).toEqual(['The primary billing is missing: Policy Number.']);
    expect(refused.json().message).toBe(
      'The billing review cannot be Review Complete yet. The primary billing is missing: Policy Number.',
    );
    expect((await call('GET', form, 'portal')).json().billingReview?.status ?? null).toBeNull();
    // other statuses are not gated
    expect((await billing('NEEDS_ATTENTION')).statusCode).toBe(200);
  });

  it('a file attached after submission is on the order and its timeline, with who attached it', async () => {
    const { payload, contentType } = multipart([
      { name: 'type', value: 'RECENT_PATHOLOGY_REPORT' },
      { name: 'testOrderForm.id', value: requisitionId },
      {
        name: 'file',
        filename: 'late-pathology.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('%PDF-1.4 x'),
      },
    ]);
    const up = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/attachments/upload',
      headers: { ...h.npi, 'content-type': contentType },
      payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const form = `/portal/api/v1/testOrderForms/${requisitionId}`;
    const names = (await call('GET', form, 'npi')).json().attachments.map((a: any) => a.name);
    expect(names).toContain('late-pathology.pdf');
    const entry = ((await call('GET', `${form}/timeline`, 'npi')).json().content as any[]).find(
      (e) => e.kind === 'attachment-added',
    );
    expect(entry).toMatchObject({
      family: 'attachment',
      data: { name: 'late-pathology.pdf', type: 'RECENT_PATHOLOGY_REPORT' },
    });
    expect(entry.by.name).toBeTruthy();
  });

  it('two lab users changing the same test at once: no update is lost', async () => {
    const before = (await lab.models.TestOrder.findById(testId).lean())!.testHistories.length;
    const statuses = [
      'REPLACEMENT_AWAITING',
      'AMENDMENT_AWAITING',
      'TNP_AWAITING_REPLACEMENT',
      'CANCELLED',
    ] as const;
    const results = await Promise.all(
      statuses.map((status) =>
        call('POST', `${API}/updateTestsStatus`, 'accessioner', { uuids: [testId], status }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    // each either landed (and is in the history) or got a clear conflict; nothing vanished
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const doc = (await lab.models.TestOrder.findById(testId).lean())!;
    expect(doc.testHistories.length).toBe(before + ok);
    expect(doc.version).toBeGreaterThanOrEqual(ok);
    expect(doc.status).toBe(doc.testHistories.at(-1)!.status);
    await waitFor(
      () => (eventsOf(testId).filter((e) => e.data.change === 'status').length === 1 + ok ? true : null),
      { what: 'one event per landed change', timeoutMs: 45_000 },
    );
  });
});
