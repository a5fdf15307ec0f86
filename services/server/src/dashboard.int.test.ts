import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, SessionUser } from '@onco/platform';
import { createLabModule, type LabModule, type TestOrderDoc } from '@onco/lab';
import {
  createBillingModule,
  billingDashboard,
  type BillingCaseDoc,
  type BillingModule,
} from '@onco/billing';
import { createMessagesModule, type MessagesModule } from '@onco/messages';
import { createReferenceModule } from '@onco/reference';
import { requisitionModels, type RequisitionDoc } from '@onco/requisitions';
import { createUser, sharedTestSystem, signIn, type Auth, type TestSystem } from '@onco/testing';
import { defaultDashboardRange, parseDashboardQuery } from './dashboard';

const day = (m: number, d: number, y = 2025) => new Date(Date.UTC(y, m, d));
const RANGE = `between(${day(0, 1).getTime()}, ${day(11, 31).getTime()})`;

describe('GET /portal/api/v1/dashboard (composed from lab, requisitions, billing, messages; real store)', () => {
  let sys: TestSystem;
  let app: App;
  let lab: LabModule;
  let billing: BillingModule;
  let messages: MessagesModule;
  const h: Record<string, Auth> = {};

  const tof = (account: string) => ({
    id: `tof-${account}`,
    account: { id: account, name: null },
    physician: { id: `phy-${account}`, name: null },
  });

  beforeAll(async () => {
    sys = await sharedTestSystem();
    app = sys.app;
    lab = createLabModule(sys.ctx);
    billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
    messages = createMessagesModule(sys.ctx);
    const req = requisitionModels(sys.ctx.mongo);

    const test = (status: string, account: string, createdOn: Date, over: Record<string, unknown> = {}) =>
      ({
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        status,
        createdOn,
        updatedOn: createdOn,
        testOrderForm: tof(account),
        ...over,
      }) as unknown as TestOrderDoc;
    await lab.models.TestOrder.create([
      test('TEST_ORDERED', 'acc-A', day(1, 1)),
      test('TEST_ORDERED', 'acc-A', day(1, 2)),
      test('IN_PROGRESS', 'acc-A', day(1, 3)),
      test('TEST_SELECTED', 'acc-A', day(1, 4)),
      test('TEST_ORDERED', 'acc-A', day(1, 5), { deleted: true }),
      test('TEST_ORDERED', 'acc-A', day(5, 1, 2024)), // before the range
      test('CANCELLED', 'acc-B', day(1, 6)),
      ...Array.from({ length: 10 }, (_, i) =>
        test('REPORT_COMPLETE', 'acc-A', day(2, 1), { testOrderId: `DONE-${i}`, updatedOn: day(3, i + 1) }),
      ),
    ]);
    const form = (status: string, review: string, account: string, over: Record<string, unknown> = {}) =>
      ({
        status,
        clinicalReviewStatus: review,
        account: { id: account, name: null },
        physician: { id: `phy-${account}`, name: null },
        createdOn: day(1, 1),
        ...over,
      }) as unknown as RequisitionDoc;
    await req.Requisition.create([
      form('SUBMITTED', 'NEEDS_REVIEW', 'acc-A'),
      form('SUBMITTED', 'NEEDS_REVIEW', 'acc-A'),
      form('SUBMITTED', 'REVIEW_COMPLETE', 'acc-A'),
      form('DRAFT', 'NEEDS_REVIEW', 'acc-A'),
      form('SUBMITTED', 'NEEDS_REVIEW', 'acc-A', { deleted: true }),
      form('SUBMITTED', 'NEEDS_REVIEW', 'acc-B'),
    ]);
    const billingCase = (n: number, review: string, account: string, caseStatus = 'NOT_SUBMITTED') =>
      ({
        testOrderId: `case-${n}`,
        reviewStatus: review,
        caseStatus,
        account: { id: account, name: null },
        physician: { id: `phy-${account}`, name: null },
        createdOn: day(1, 1),
      }) as unknown as BillingCaseDoc;
    await billing.models.BillingCase.create([
      billingCase(1, 'NEEDS_REVIEW', 'acc-A', 'RETRY_FAILED'),
      billingCase(2, 'AWAITING_INFO', 'acc-A', 'REJECTED_BY_XIFIN'),
      billingCase(3, 'NEEDS_REVIEW', 'acc-B', 'ACCEPTED_BY_XIFIN'),
      // needs attention whenever it was created (outside the range's review counts)
      { ...billingCase(4, 'REVIEW_COMPLETE', 'acc-B', 'UPDATE_NOT_ALLOWED'), createdOn: day(0, 1, 2023) },
    ]);
    await messages.models.Message.create([
      { subject: 'new', type: 'CASE', account: { id: 'acc-A' } },
      { subject: 'read', type: 'CASE', account: { id: 'acc-A' }, read: true },
      { subject: 'a comment', type: 'CASE_COMMENT', comment: true, account: { id: 'acc-A' } },
      { subject: 'other clinic', type: 'CASE', account: { id: 'acc-B' } },
    ]);

    const users = {
      npi: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      pathologist: await createUser(sys, 'ROLE_PATHOLOGIST', { account: { id: 'acc-A', name: 'Alpha' } }),
      other: await createUser(sys, 'ROLE_PATHOLOGIST', { account: { id: 'acc-C', name: 'Gamma' } }),
      admin: await createUser(sys, 'ROLE_ADMINISTRATOR'),
      patient: await createUser(sys, 'ROLE_PATIENT', { account: { id: 'acc-A', name: 'Alpha' } }),
    };
    Object.assign(h, await signIn(sys, users));
  });
  afterAll(async () => {
    await sys?.close();
  });

  const get = (who: string, qs = `dateRange=${encodeURIComponent(RANGE)}`) =>
    app.inject({ method: 'GET', url: `/portal/api/v1/dashboard?${qs}`, headers: h[who] });

  it('needs a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/portal/api/v1/dashboard' })).statusCode).toBe(401);
  });

  it('counts tests per status in the range within the scope (TEST_SELECTED, deleted and out-of-range excluded)', async () => {
    const res = await get('npi');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.range).toEqual({ start: day(0, 1).getTime(), end: day(11, 31).getTime() });
    expect(body.testStatus).toEqual({
      TEST_ORDERED: 2,
      IN_PROGRESS: 1,
      TNP_AWAITING_REPLACEMENT: 0,
      REPLACEMENT_AWAITING: 0,
      AMENDMENT_AWAITING: 0,
      REPORT_COMPLETE: 10,
      TNP_REPORT_COMPLETE: 0,
      REPORT_AMENDED: 0,
      CANCELLED: 0,
    });
    expect(body.unreadMessages).toBe(1);
    // no clinical or billing counters without their permissions
    expect(body).not.toHaveProperty('clinicalReview');
    expect(body).not.toHaveProperty('billingReview');
  });

  it('lists recently completed tests, 8 a page, newest update first', async () => {
    const p0 = (await get('npi')).json().recentlyCompleted;
    expect(p0).toMatchObject({ totalElements: 10, page: 0, perPage: 8 });
    expect(p0.content.map((t: any) => t.testOrderId)).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2].map((i) => `DONE-${i}`),
    );
    expect(p0.content[0]).not.toHaveProperty('outbox');
    const p1 = (await get('npi', `dateRange=${encodeURIComponent(RANGE)}&page=1`)).json().recentlyCompleted;
    expect(p1.content.map((t: any) => t.testOrderId)).toEqual(['DONE-1', 'DONE-0']);
  });

  it('gives clinical review counts with CAN_REVIEW_DIAGNOSIS (submitted, not deleted, in scope)', async () => {
    const body = (await get('pathologist')).json();
    expect(body.clinicalReview).toEqual({
      AWAITING_PATH_REPORT: 0,
      NEEDS_REVIEW: 2,
      IN_PROGRESS: 0,
      NEEDS_ATTENTION: 0,
      REVIEW_COMPLETE: 1,
      DISQUALIFIED: 0,
    });
    expect(body).not.toHaveProperty('billingReview');
  });

  it('gives billing review counts with VIEW_BILLING_DASHBOARD; staff see every account', async () => {
    const body = (await get('admin')).json();
    expect(body.billingReview).toEqual({
      NEEDS_REVIEW: 2,
      NEEDS_ATTENTION: 0,
      REVIEW_COMPLETE: 0,
      AWAITING_INFO: 1,
    });
    // RETRY_FAILED, REJECTED_BY_XIFIN and the old UPDATE_NOT_ALLOWED case; not the accepted one
    expect(body.billingAttention).toBe(3);
    expect(body.clinicalReview.NEEDS_REVIEW).toBe(3);
    expect(body.testStatus.CANCELLED).toBe(1);
    expect(body.unreadMessages).toBe(2);
  });

  it('shows a user of another account zero everywhere', async () => {
    const body = (await get('other')).json();
    expect(Object.values(body.testStatus).every((n) => n === 0)).toBe(true);
    expect(Object.values(body.clinicalReview).every((n) => n === 0)).toBe(true);
    expect(body.recentlyCompleted).toMatchObject({ totalElements: 0, content: [] });
    expect(body.unreadMessages).toBe(0);
    // billing's part for a scoped user with the billing permission (no such role yet): zero too
    const scoped: SessionUser = {
      id: 'u',
      loginId: 'u',
      firstName: 'U',
      lastName: 'U',
      role: 'ROLE_NPI',
      status: 'ACTIVE',
      grantedAuthorities: ['VIEW_BILLING_DASHBOARD'],
      accountIds: ['acc-C'],
      physicianIds: [],
      allAccounts: false,
      tokenVersion: 0,
    };
    const part = await billingDashboard(billing.models, scoped, {
      start: day(0, 1),
      end: day(11, 31),
      page: 0,
    });
    expect(Object.values(part.billingReview!).every((n) => n === 0)).toBe(true);
    expect(part.billingAttention).toBe(0);
    // in acc-A's scope: its two cases that need attention
    const accA = await billingDashboard(
      billing.models,
      { ...scoped, accountIds: ['acc-A'] },
      {
        start: day(0, 1),
        end: day(11, 31),
        page: 0,
      },
    );
    expect(accA.billingAttention).toBe(2);
  });

  it('shows a patient only the unread message count (no test counters without VIEW_TESTS_PAGE)', async () => {
    const body = (await get('patient')).json();
    expect(body).not.toHaveProperty('testStatus');
    expect(body).not.toHaveProperty('recentlyCompleted');
    expect(body.unreadMessages).toBe(1);
  });

  it('takes the range as from/to too, narrows with it, and refuses a bad range', async () => {
    const feb = (await get('npi', `from=${day(1, 2).getTime()}&to=${day(1, 3).getTime()}`)).json();
    expect(feb.testStatus).toMatchObject({ TEST_ORDERED: 1, IN_PROGRESS: 1, REPORT_COMPLETE: 0 });
    for (const qs of [
      'dateRange=between(1)',
      'dateRange=yesterday',
      'from=abc',
      `from=${day(2, 1).getTime()}&to=${day(1, 1).getTime()}`,
      'page=-1',
    ]) {
      const res = await get('npi', qs);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Invalid /);
    }
  });

  it('defaults to the start of the day three months ago through the end of today', () => {
    const now = new Date(2025, 5, 15, 10, 30);
    const { start, end } = defaultDashboardRange(now);
    expect(start).toEqual(new Date(2025, 2, 15, 0, 0, 0, 0));
    expect(end).toEqual(new Date(2025, 5, 15, 23, 59, 59, 999));
    expect(parseDashboardQuery({}, now)).toEqual({ start, end, page: 0 });
  });
});
