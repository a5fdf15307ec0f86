/**
 * The one role-to-permission matrix. The session's grantedAuthorities come from it and the server's
 * route guard enforces it; the console only hides what the server would refuse anyway.
 * docs/permissions.md is generated from this file (scripts/gen-permissions-doc.ts); keep them in step.
 */
export const ROLES = [
  'ROLE_NPI',
  'ROLE_NON_NPI',
  'ROLE_PATHOLOGIST',
  'ROLE_ADDITIONAL_PHYSICIAN',
  'ROLE_ADMINISTRATOR',
  'ROLE_PROJECT_MANAGER',
  'ROLE_ACCESSIONER',
  'ROLE_GENETIC_COUNSELOR',
  'ROLE_OBSERVER',
  'ROLE_DEVOPS',
  'ROLE_CE_ADMINISTRATOR',
  'ROLE_PATIENT',
  'ROLE_PORTAL_ADMIN',
  'ROLE_HOSPITAL_ADMIN',
  'ROLE_PHYSICIAN',
] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  ROLE_NPI: 'NPI Provider',
  ROLE_NON_NPI: 'Non-NPI Staff',
  ROLE_PATHOLOGIST: 'Pathologist',
  ROLE_ADDITIONAL_PHYSICIAN: 'Additional Physician',
  ROLE_ADMINISTRATOR: 'Administrator',
  ROLE_PROJECT_MANAGER: 'Project Manager',
  ROLE_ACCESSIONER: 'Accessioner',
  ROLE_GENETIC_COUNSELOR: 'Genetic Counselor',
  ROLE_OBSERVER: 'Observer',
  ROLE_DEVOPS: 'DevOps',
  ROLE_CE_ADMINISTRATOR: 'CE Administrator',
  ROLE_PATIENT: 'Patient',
  ROLE_PORTAL_ADMIN: 'Admin',
  ROLE_HOSPITAL_ADMIN: 'Hospital Admin',
  ROLE_PHYSICIAN: 'Physician',
};

/** Pages (spec 3 section 2.1): VIEW_{NAME}_PAGE shows the route and its menu entry. */
export const PAGES = [
  'HOME',
  'ORDERS',
  'ORDER',
  'KITS',
  'TESTS',
  'TEST',
  'BILLING',
  'BOX',
  'PATIENTS',
  'PATIENT',
  'MESSAGES',
  'USERS',
  'PLAYGROUND',
] as const;
export type Page = (typeof PAGES)[number];
type PagePermission = `VIEW_${Page}_PAGE`;
const page = (p: Page): PagePermission => `VIEW_${p}_PAGE`;

/** Adding to the form's pick lists and clinical details while ordering (spec 1 section 6). */
const FORM_ADDITIONS = [
  'CAN_CREATE_HOSPITALLOCATION',
  'CAN_ADD_PRIOR_THERAPIES',
  'CAN_ADD_CURRENT_THERAPIES',
  'CAN_ADD_SPECIMEN_TYPE',
  'CAN_ADD_TUMOR_PERCENTAGE',
  'CAN_ADD_DATE_OF_DIAGNOSIS',
] as const;

/** Every permission named in the spec, plus the server-side ones marked (ours). */
export const PERMISSIONS = [
  ...PAGES.map(page),
  // requisitions (spec 1 section 6)
  'CAN_CREATE_TRF', // (ours) create and save a requisition
  'CAN_SUBMIT_TRF', // (ours) submit a signed requisition
  'CAN_SIGN_TRF', // (ours) sign (approve) a requisition with one's own password
  'CAN_CREATE_TRF_PDF',
  'CAN_ADD_DIAGNOSIS',
  'VIEW_LIMS_INFORMATION',
  'VIEW_NPI_REGISTRY',
  'CAN_EDIT_PHYSICIAN_EMAIL',
  'CAN_CREATE_ACCOUNT',
  ...FORM_ADDITIONS,
  'CAN_REVIEW_DIAGNOSIS',
  'CAN_EDIT_BILLING',
  'CAN_EDIT_TRF',
  'CAN_DELETE_TRF',
  'CAN_CREATE_FEED',
  'CAN_DOWNLOAD_CSV',
  'CAN_MERGE_TRF',
  'CAN_SEARCH_PATIENT', // the spec's canSearchPatient flag
  'IS_TEST_SELECTION_OPTIONAL',
  'IS_BILLING_OPTIONAL',
  'IS_PROVIDER_INFO_OPTIONAL',
  'IS_PATIENT_INFO_OPTIONAL',
  'IS_SPECIMEN_INFO_OPTIONAL',
  // tests, samples, patients, kits (spec 2 section 6)
  'VIEW_TESTORDER_ACTIONS',
  'VIEW_TESTS_ACTIONS', // (ours) the Tests page Actions menu: portal administrators only (spec 2 section 6)
  'CAN_UPDATE_DUE_DATE',
  'VIEW_TESTORDER_DUEDATE',
  'VIEW_TESTORDER_DURATION',
  'VIEW_KITS_ACTIONS',
  'VIEW_PATIENT_ACTIONS',
  'CAN_UPDATE_PATIENTID',
  'CAN_MERGE_PATIENTS',
  'VIEW_SAMPLE_ACTIONS',
  // billing (spec 3 section 6)
  'VIEW_BILLING_ACTIONS',
  'CAN_UPDATE_BILLING_CODE',
  'CAN_CLOSE_BILLING_CASES', // (ours) set a billing case BILLING_COMPLETE, RETIRED_FROM_BILLING or ON_HOLD_EXTERNAL
  'CAN_UPDATE_ASSIGNEE',
  'VIEW_BILLING_DASHBOARD',
  // administration (ours)
  'CAN_MANAGE_USERS', // list and act on users (scoped for hospital admins)
  'CAN_ADD_USERS', // create users (which roles: CREATABLE_ROLES)
  'CAN_MANAGE_MAINTENANCE', // create and delete maintenance windows
  'CAN_MANAGE_REFERENCE_DATA', // accounts, payors, ICD-10, diagnosis types, release notes
  'VIEW_ALL_ACCOUNTS', // data scope: sees every account (lab and billing staff)
  'VIEW_OPERATIONS', // queue and outbox health for operators
  'VIEW_AUDIT_TRAIL', // the audit trail: who read, changed, exported or downloaded which PHI (docs/audit.md)
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const PROVIDER_PAGES: Permission[] = (
  ['HOME', 'ORDERS', 'ORDER', 'KITS', 'TESTS', 'TEST', 'PATIENTS', 'PATIENT', 'MESSAGES', 'BOX'] as const
).map(page);
const LAB_PAGES: Permission[] = PAGES.filter((p) => p !== 'USERS').map(page);

const ORDERING: Permission[] = [
  'CAN_CREATE_TRF',
  'CAN_SUBMIT_TRF',
  'CAN_CREATE_TRF_PDF',
  'CAN_EDIT_TRF',
  'CAN_SEARCH_PATIENT',
  'VIEW_NPI_REGISTRY',
  ...FORM_ADDITIONS,
  'CAN_DOWNLOAD_CSV',
  'VIEW_KITS_ACTIONS',
];

const LAB_OPERATIONS: Permission[] = [
  'VIEW_ALL_ACCOUNTS',
  'VIEW_LIMS_INFORMATION',
  'VIEW_TESTORDER_ACTIONS',
  'VIEW_TESTORDER_DUEDATE',
  'VIEW_TESTORDER_DURATION',
  'CAN_UPDATE_DUE_DATE',
  'VIEW_SAMPLE_ACTIONS',
  'VIEW_PATIENT_ACTIONS',
  'CAN_CREATE_FEED',
  'CAN_DOWNLOAD_CSV',
  'CAN_REVIEW_DIAGNOSIS',
  'CAN_ADD_DIAGNOSIS',
  'CAN_SEARCH_PATIENT',
];

const BILLING: Permission[] = [
  'VIEW_BILLING_ACTIONS',
  'CAN_UPDATE_BILLING_CODE',
  'CAN_CLOSE_BILLING_CASES',
  'CAN_UPDATE_ASSIGNEE',
  'VIEW_BILLING_DASHBOARD',
  'CAN_EDIT_BILLING',
];

const uniq = (xs: Permission[]): Permission[] => [...new Set(xs)];

export const ROLE_PERMISSIONS: Record<Role, Permission[]> = {
  ROLE_NPI: uniq([...PROVIDER_PAGES, ...ORDERING, 'CAN_SIGN_TRF']),
  ROLE_PHYSICIAN: uniq([...PROVIDER_PAGES, ...ORDERING, 'CAN_SIGN_TRF']),
  ROLE_NON_NPI: uniq([...PROVIDER_PAGES, ...ORDERING, 'CAN_SIGN_TRF']),
  // the pathologist reviewing a diagnosis may correct the specimen's type, tumor content and date of diagnosis
  ROLE_PATHOLOGIST: uniq([
    ...PROVIDER_PAGES,
    'CAN_REVIEW_DIAGNOSIS',
    'CAN_SEARCH_PATIENT',
    'CAN_ADD_SPECIMEN_TYPE',
    'CAN_ADD_TUMOR_PERCENTAGE',
    'CAN_ADD_DATE_OF_DIAGNOSIS',
  ]),
  ROLE_ADDITIONAL_PHYSICIAN: uniq([...PROVIDER_PAGES, ...ORDERING, 'CAN_SIGN_TRF']),
  ROLE_ADMINISTRATOR: uniq([
    ...LAB_PAGES,
    ...ORDERING,
    ...LAB_OPERATIONS,
    ...BILLING,
    'CAN_SIGN_TRF',
    'CAN_EDIT_PHYSICIAN_EMAIL',
    'CAN_CREATE_ACCOUNT',
    'CAN_DELETE_TRF',
    'CAN_MERGE_TRF',
    'CAN_UPDATE_PATIENTID',
    'CAN_MERGE_PATIENTS',
    'IS_BILLING_OPTIONAL',
    'CAN_MANAGE_MAINTENANCE',
    'CAN_MANAGE_REFERENCE_DATA',
    'VIEW_OPERATIONS',
  ]),
  ROLE_PROJECT_MANAGER: uniq([...LAB_PAGES, ...LAB_OPERATIONS, ...BILLING, 'CAN_MERGE_TRF', 'CAN_EDIT_TRF']),
  ROLE_ACCESSIONER: uniq([
    ...LAB_PAGES.filter((p) => p !== 'VIEW_BILLING_PAGE'),
    ...LAB_OPERATIONS,
    'CAN_CREATE_TRF',
    'CAN_EDIT_TRF',
    'CAN_SUBMIT_TRF',
    'CAN_SIGN_TRF',
    'CAN_CREATE_TRF_PDF',
    // the accessioner transcribes paper TRFs: every clinical field of the form
    ...FORM_ADDITIONS.filter((p) => p.startsWith('CAN_ADD_')),
    'IS_TEST_SELECTION_OPTIONAL',
    'IS_BILLING_OPTIONAL',
    'IS_PROVIDER_INFO_OPTIONAL',
    'IS_PATIENT_INFO_OPTIONAL',
    'IS_SPECIMEN_INFO_OPTIONAL',
    'CAN_MERGE_TRF',
  ]),
  ROLE_GENETIC_COUNSELOR: uniq([
    ...PROVIDER_PAGES,
    'VIEW_ALL_ACCOUNTS',
    'CAN_CREATE_FEED',
    'CAN_REVIEW_DIAGNOSIS',
    'VIEW_LIMS_INFORMATION',
    'CAN_SEARCH_PATIENT',
  ]),
  ROLE_OBSERVER: uniq([...PROVIDER_PAGES]),
  ROLE_DEVOPS: uniq([
    ...LAB_PAGES,
    'VIEW_ALL_ACCOUNTS',
    'VIEW_LIMS_INFORMATION',
    'VIEW_OPERATIONS',
    'CAN_MANAGE_MAINTENANCE',
  ]),
  ROLE_CE_ADMINISTRATOR: uniq([
    ...PROVIDER_PAGES,
    'VIEW_ALL_ACCOUNTS',
    'CAN_CREATE_FEED',
    'CAN_MANAGE_REFERENCE_DATA',
  ]),
  ROLE_PATIENT: uniq(['VIEW_HOME_PAGE', 'VIEW_MESSAGES_PAGE', 'VIEW_TEST_PAGE']),
  ROLE_PORTAL_ADMIN: uniq(PERMISSIONS.filter((p) => !p.startsWith('IS_'))),
  ROLE_HOSPITAL_ADMIN: uniq([
    ...PROVIDER_PAGES,
    'VIEW_USERS_PAGE',
    'CAN_MANAGE_USERS',
    'CAN_ADD_USERS',
    'CAN_SEARCH_PATIENT',
  ]),
};

export function permissionsOf(role: Role): Permission[] {
  return ROLE_PERMISSIONS[role] ?? [];
}

export function hasPermission(granted: readonly string[], p: Permission): boolean {
  return granted.includes(p);
}

/** Spec 3 section 6: portal admin may add users of every role; hospital admin may add only patients. */
export const CREATABLE_ROLES: Partial<Record<Role, Role[]>> = {
  ROLE_PORTAL_ADMIN: [...ROLES],
  ROLE_HOSPITAL_ADMIN: ['ROLE_PATIENT'],
};

export function creatableRoles(creator: Role): Role[] {
  return CREATABLE_ROLES[creator] ?? [];
}

/** Roles whose users are physicians in the data scope (they see their own orders). */
export const PHYSICIAN_ROLES: Role[] = [
  'ROLE_NPI',
  'ROLE_PHYSICIAN',
  'ROLE_ADDITIONAL_PHYSICIAN',
  'ROLE_PATHOLOGIST',
];

/** Roles that need an account on create (spec 3 section 2.7: "account (for some roles)"). */
export const ACCOUNT_ROLES: Role[] = [
  'ROLE_NPI',
  'ROLE_NON_NPI',
  'ROLE_PATHOLOGIST',
  'ROLE_ADDITIONAL_PHYSICIAN',
  'ROLE_OBSERVER',
  'ROLE_PATIENT',
  'ROLE_HOSPITAL_ADMIN',
  'ROLE_PHYSICIAN',
];
