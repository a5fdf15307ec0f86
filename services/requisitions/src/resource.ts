import {
  can,
  forbidden,
  scopeFilter,
  type ListQuery,
  type ListResource,
  type SessionUser,
} from '@onco/platform';

/**
 * The orders list (spec 2 sections 2.2 and 7 "Requisitions"): GET /portal/api/v1/testOrderForms in both list
 * dialects, with the spec's filter keys and facets.
 */
export const requisitionsResource: ListResource = {
  name: 'testOrderForms',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    testRequisitionId: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    archived: { type: 'boolean', filter: true },
    clinicalReviewStatus: { type: 'string', filter: true, sort: true },
    reviewStatus: { type: 'string', path: 'clinicalReviewStatus', filter: true },
    billingReviewStatus: { type: 'string', path: 'billingReview.status', filter: true, sort: true },
    patientId: { type: 'id', path: 'patient.id', filter: true },
    patientName: { type: 'string', path: 'patient.name', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    accountIds: { type: 'id', path: 'account.id', filter: true },
    accountName: { type: 'string', path: 'account.name', filter: true, sort: true },
    physicianId: { type: 'id', path: 'physician.id', filter: true },
    physicianIds: { type: 'id', path: 'physician.id', filter: true },
    physicianName: { type: 'string', path: 'physician.name', filter: true, sort: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocation.id', filter: true },
    locationName: { type: 'string', path: 'hospitalLocation.name', filter: true, sort: true },
    diagnosis: { type: 'string', path: 'tumorSpecimen.diagnosis', filter: true, sort: true },
    testOrderIds: { type: 'id', path: 'testOrders.id', filter: true },
    testStatus: { type: 'string', path: 'testOrders.status', filter: true },
    testType: { type: 'string', path: 'testOrders.testType', filter: true },
    orderType: { type: 'string', path: 'testOrders.orderType', filter: true },
    sampleStatus: { type: 'string', path: 'sampleStatuses', filter: true },
    parentTestRequisitionId: { type: 'string', path: 'parentTestOrderForm.testRequisitionId', filter: true },
    createdBy: { type: 'string', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: [
    'testRequisitionId',
    'patient.name',
    'patient.userId',
    'patient.mrn',
    'account.name',
    'physician.name',
    'hospitalLocation.name',
    'parentTestOrderForm.testRequisitionId',
  ],
  facets: [
    { name: 'test_status_facet', field: 'testStatus', unwind: 'testOrders' },
    { name: 'clinical_review_facet', field: 'clinicalReviewStatus' },
    { name: 'billing_review_facet', field: 'billingReviewStatus' },
    { name: 'physician_facet', field: 'physicianName' },
    { name: 'account_facet', field: 'accountName' },
    { name: 'hospital_location_facet', field: 'locationName' },
    { name: 'diagnosis_facet', field: 'diagnosis' },
    { name: 'test_type_facet', field: 'testType', unwind: 'testOrders' },
    { name: 'sample_status_facet', field: 'sampleStatus', unwind: 'sampleStatuses' },
    { name: 'order_type_facet', field: 'orderType', unwind: 'testOrders' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/**
 * Who sees a requisition: its account or physician is one of the user's, or the user created it (a draft may
 * not have an account yet: it is started on the patient step). Lab and billing staff see every account.
 */
export function requisitionScope(user: SessionUser): Record<string, unknown> {
  return scopeFilter(user, REQUISITION_SCOPE);
}

/** The paths the data scope reads (the list's read model keeps them). */
const REQUISITION_SCOPE = { account: 'account.id', physician: 'physician.id', owner: 'createdBy' } as const;
export const REQUISITION_SCOPE_PATHS: readonly string[] = Object.values(REQUISITION_SCOPE);

/**
 * One requisition by id as the user may see it: the data scope and (unless `includeDeleted`) the soft delete are
 * part of the query, so a requisition out of scope reads as not found.
 */
export function requisitionByIdFilter(
  user: SessionUser,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [{ _id: id }];
  if (!opts.includeDeleted) parts.push({ deleted: { $ne: true } });
  const scope = requisitionScope(user);
  if (Object.keys(scope).length) parts.push(scope);
  return parts.length === 1 ? parts[0] : { $and: parts };
}

/** The same rule as requisitionScope, for one requisition already read (by id). */
export function inRequisitionScope(
  user: SessionUser,
  doc: {
    account?: { id?: string | null } | null;
    physician?: { id?: string | null } | null;
    createdBy?: string | null;
  },
): boolean {
  if (user.allAccounts) return true;
  const account = doc.account?.id ?? null;
  const physician = doc.physician?.id ?? null;
  return (
    (account !== null && user.accountIds.includes(account)) ||
    (physician !== null && user.physicianIds.includes(physician)) ||
    doc.createdBy === user.id
  );
}

/** The list's scope: deleted requisitions only when asked, and only for users holding CAN_DELETE_TRF. */
export function requisitionListScope(user: SessionUser, query: ListQuery): Record<string, unknown> {
  if (query.includeDeleted && !can(user, 'CAN_DELETE_TRF')) {
    throw forbidden('Deleted requisitions are shown only to users who may delete them (CAN_DELETE_TRF).');
  }
  return requisitionScope(user);
}

/** The orders CSV export's default column mapping (field path -> column title), in column order. */
export const EXPORT_MAPPING: Array<[string, string]> = [
  ['testRequisitionId', 'TRF #'],
  ['parentTestOrderForm.testRequisitionId', 'Initial TRF #'],
  ['status', 'Status'],
  ['account.name', 'Account'],
  ['hospitalLocation.name', 'Location'],
  ['hospitalLocation.address.city', 'City'],
  ['physician.name', 'Physician'],
  ['physician.userId', 'NPI'],
  ['patient.name', 'Patient'],
  ['patient.userId', 'Patient #'],
  ['patient.dateOfBirth', 'Date of Birth'],
  ['tumorSpecimen.diagnosis', 'Diagnosis'],
  ['tumorSpecimen.icd10Codes', 'ICD-10 Codes'],
  ['testOrders', 'Tests'],
  ['sampleStatuses', 'Sample Statuses'],
  ['clinicalReviewStatus', 'Clinical Review'],
  ['billingReview.status', 'Billing Review'],
  ['createdOn', 'Created'],
  ['updatedOn', 'Updated'],
];
