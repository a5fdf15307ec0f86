import type { FastifyInstance } from 'fastify';
import { type ListQuery, type ListResource, listRoutes, scopeFilter, type SessionUser } from '@onco/platform';
import type { LabModels } from '../models';

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
    dueOn: { type: 'date', filter: true, sort: true },
    testDuration: { type: 'number', filter: true, sort: true },
    limsProjectId: { type: 'string', filter: true, sort: true },
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

export async function testOrderRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  listRoutes(app, {
    path: '/testOrders',
    resource: testOrdersResource,
    model: opts.models.TestOrder,
    permission: 'VIEW_TESTS_PAGE',
    scope: testOrdersScope,
    tag: 'tests',
    noun: 'test orders',
  });
}
