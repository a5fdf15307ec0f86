import type { FastifyInstance } from 'fastify';
import { type ListResource, listRoutes } from '@onco/platform';
import { billingScope } from '../use-cases';
import type { BillingModels } from '../models';

/** The billing cases list (spec 3 sections 2.9 and 7.3): /bis/api/v1/billingCases. */
export const billingCasesResource: ListResource = {
  name: 'billingCases',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    testId: { type: 'string', filter: true, sort: true },
    testOrderId: { type: 'id', filter: true },
    testRequisitionId: { type: 'string', filter: true, sort: true },
    testOrderFormId: { type: 'id', filter: true },
    accountName: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    physicianId: { type: 'id', path: 'physician.id', filter: true },
    physicianName: { type: 'string', path: 'physician.name', filter: true, sort: true },
    patientName: { type: 'string', path: 'patient.name', filter: true, sort: true },
    testType: { type: 'string', filter: true, sort: true },
    orderType: { type: 'string', filter: true, sort: true },
    timePoint: { type: 'string', filter: true, sort: true },
    billingCode: { type: 'string', filter: true, sort: true },
    testStatus: { type: 'string', filter: true, sort: true },
    reviewStatus: { type: 'string', filter: true, sort: true },
    caseStatus: { type: 'string', filter: true, sort: true },
    assigneeName: { type: 'string', path: 'assignee.name', filter: true, sort: true },
    caseQualifiedDate: { type: 'date', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: [
    'testId',
    'testRequisitionId',
    'accountName',
    'physician.name',
    'patient.name',
    'billingCode',
    'assignee.name',
  ],
  facets: [
    { name: 'test_type_facet', field: 'testType' },
    { name: 'test_status_facet', field: 'testStatus' },
    { name: 'review_status_facet', field: 'reviewStatus' },
    { name: 'case_status_facet', field: 'caseStatus' },
    { name: 'assignee_name_facet', field: 'assigneeName' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

export async function billingCaseRoutes(app: FastifyInstance, opts: { models: BillingModels }) {
  listRoutes(app, {
    path: '/billingCases',
    resource: billingCasesResource,
    model: opts.models.BillingCase,
    permission: 'VIEW_BILLING_PAGE',
    scope: (user) => billingScope(user),
    tag: 'billing',
    noun: 'billing cases',
    // each page served names its rows' patients in the audit trail
    audit: { record: 'billing-case', patientOf: (row) => row.patient?.id },
  });
}
