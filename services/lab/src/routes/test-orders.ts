import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldView, TEST_ORDER_FIELD_PERMISSIONS, TEST_STATUSES } from '@onco/domain';
import {
  errorReplies,
  getByIdRoute,
  type ListQuery,
  type ListResource,
  listRoutes,
  requireUser,
  scopeFilter,
  type SessionUser,
  toApi,
  typed,
} from '@onco/platform';
import type { LabModels, TestOrderDoc } from '../models';
import {
  findTestOrder,
  testOrderOut,
  updateDueDate,
  updateLimsProjectId,
  updateTestsStatus,
} from '../use-cases';

/** The tests list (spec 2 sections 2.4 and 7 "Test orders"): /oms/api/v1/testOrders. */
export const testOrdersResource: ListResource = {
  name: 'testOrders',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    testOrderId: { type: 'string', filter: true, sort: true },
    testId: { type: 'string', filter: true, sort: true },
    testType: { type: 'string', filter: true, sort: true },
    orderType: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    // shown only with their permissions (spec 2 section 6): withheld from everyone else, rows and query alike
    dueOn: { type: 'date', filter: true, sort: true, permission: TEST_ORDER_FIELD_PERMISSIONS.dueOn },
    testDuration: {
      type: 'number',
      filter: true,
      sort: true,
      permission: TEST_ORDER_FIELD_PERMISSIONS.testDuration,
    },
    limsProjectId: {
      type: 'string',
      filter: true,
      sort: true,
      permission: TEST_ORDER_FIELD_PERMISSIONS.limsProjectId,
    },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    testOrderFormId: { type: 'id', path: 'testOrderForm.id', filter: true },
    testRequisitionId: { type: 'string', path: 'testOrderForm.testRequisitionId', filter: true, sort: true },
    accountId: { type: 'id', path: 'testOrderForm.account.id', filter: true },
    accountIds: { type: 'id', path: 'testOrderForm.account.id', filter: true },
    physicianId: { type: 'id', path: 'testOrderForm.physician.id', filter: true },
    physicianIds: { type: 'id', path: 'testOrderForm.physician.id', filter: true },
    patientId: { type: 'id', path: 'testOrderForm.patient.id', filter: true },
    accountName: { type: 'string', path: 'testOrderForm.account.name', filter: true, sort: true },
    physicianName: { type: 'string', path: 'testOrderForm.physician.name', filter: true, sort: true },
    locationName: { type: 'string', path: 'testOrderForm.hospitalLocation.name', filter: true, sort: true },
    patientName: { type: 'string', path: 'testOrderForm.patient.name', filter: true, sort: true },
    reviewStatus: { type: 'string', path: 'testOrderForm.reviewStatus', filter: true, sort: true },
  },
  search: [
    'testOrderId',
    'testId',
    'limsProjectId',
    'testOrderForm.testRequisitionId',
    'testOrderForm.patient.name',
    'testOrderForm.patient.userId',
    'testOrderForm.account.name',
    'testOrderForm.physician.name',
  ],
  facets: [
    { name: 'test_status_facet', field: 'status' },
    { name: 'test_type_facet', field: 'testType' },
    { name: 'order_type_facet', field: 'orderType' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/**
 * The data scope plus the list's default: TEST_SELECTED tests (not yet ordered) are hidden unless the
 * client filters by status itself (spec 2 section 7: the default filter is !in(TEST_SELECTED)).
 */
export function testOrdersScope(user: SessionUser, query: ListQuery): Record<string, unknown> {
  const scope = scopeFilter(user, {
    account: 'testOrderForm.account.id',
    physician: 'testOrderForm.physician.id',
  });
  if (query.filters.some((f) => f.field === 'status')) return scope;
  const hide = { status: { $ne: 'TEST_SELECTED' } };
  return Object.keys(scope).length ? { $and: [scope, hide] } : hide;
}

/** A test order as the API gives it (the history and report trail embedded; `fileId`s never leave). */
const testOrderReply = z.looseObject({ id: z.string(), status: z.enum(TEST_STATUSES) });

/** The calendar day of "now" in the lab's time zone (decision: UTC, as every stored date). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

export async function testOrderRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  const r = typed(app);
  const { models } = opts;

  getByIdRoute(app, {
    path: '/testOrders/:id',
    permission: ['VIEW_TEST_PAGE', 'VIEW_TESTS_PAGE'],
    tag: 'tests',
    summary: 'One test order with its history and report versions (404 when outside the data scope)',
    reply: testOrderReply,
    errorReplies: true,
    audit: {
      record: 'test',
      subject: (t: { id: string; testOrderForm?: TestOrderDoc['testOrderForm'] }) => ({
        id: t.id,
        patientId: t.testOrderForm?.patient?.id,
        accountIds: [t.testOrderForm?.account?.id],
      }),
    },
    load: async (user, id) => testOrderOut(await findTestOrder({ models }, user, id), user),
  });

  r.post(
    '/testOrders/updateTestsStatus',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'Update Status of one or many tests (each gets a history entry and a test-status event)',
        description:
          'Every test is checked before any changes: an unknown or out-of-scope id is 404, a refused ' +
          'transition (TEST_SELECTED, or the same self-disabling status again) is 409, and nothing changes.',
        body: z.object({
          uuids: z.array(z.string().min(1).max(64)).min(1).max(500),
          status: z.enum(TEST_STATUSES),
        }),
        response: { 200: z.array(testOrderReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await updateTestsStatus({ models }, user, req.body.uuids, req.body.status);
      app.platform.nudgeOutbox();
      return done.map((d) => testOrderOut(d, user));
    },
  );

  r.post(
    '/testOrders/updateDueDate',
    {
      config: { permission: 'CAN_UPDATE_DUE_DATE' },
      schema: {
        tags: ['tests'],
        summary: 'Update Due Date of one test: a calendar day at most 30 days ahead, or null to remove it',
        body: z.object({
          uuid: z.string().min(1).max(64),
          dueOn: z.string().max(10).nullable().describe('YYYY-MM-DD, or null ("Set Due Date to None")'),
        }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await updateDueDate({ models }, user, req.body.uuid, req.body.dueOn, todayUtc());
      app.platform.nudgeOutbox();
      return testOrderOut(done, user);
    },
  );

  r.post(
    '/testOrders/updateLimsProjectId',
    {
      config: { permission: 'VIEW_TESTS_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'Add/Edit LIMS Project # of one test (Tests page Actions menu, portal administrators)',
        body: z.object({ uuid: z.string().min(1).max(64), limsProjectId: z.string().max(200) }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await updateLimsProjectId({ models }, user, req.body.uuid, req.body.limsProjectId);
      app.platform.nudgeOutbox();
      return testOrderOut(done, user);
    },
  );

  listRoutes(app, {
    path: '/testOrders',
    resource: testOrdersResource,
    model: opts.models.TestOrder,
    permission: 'VIEW_TESTS_PAGE',
    scope: testOrdersScope,
    tag: 'tests',
    noun: 'test orders',
    map: (doc, user) => fieldView(user.grantedAuthorities).testOrder(toApi(doc)),
    // each page served names its rows' patients in the audit trail
    audit: { record: 'test', patientOf: (row) => row.patient?.id },
  });
}
