import { stableId } from './ids';
import { makeNpi } from './npi';

/**
 * The demo data set: two accounts with two hospital locations each, physicians with valid NPIs (one
 * SUSPENDED, to show it is excluded from provider search), pathologists, patients spread over both accounts,
 * payors, a release note. Ids are deterministic (UUID v5-style hashes of a stable key), so a second or
 * concurrent seed collides instead of duplicating, and demo links stay the same on every machine.
 */
export function demoId(kind: string, key: string): string {
  return stableId(`demo:${kind}`, key);
}

export const DEMO_ACCOUNTS = [
  {
    accountId: 'ACC-1001',
    name: 'Pacific Oncology Associates',
    sfdcId: '0015e00000PacOnAAA',
    address: { street: '1200 Madison Street, Suite 400', city: 'Seattle', state: 'WA', postalCode: '98104', country: 'US' },
    locations: [
      {
        hospitalLocationId: 'HL-1001',
        name: 'Pacific Oncology - First Hill Clinic',
        address: { street: '1200 Madison Street, Suite 400', city: 'Seattle', state: 'WA', country: 'US', postalCode: '98104', telephone: '2065550140', fax: '2065550141' },
      },
      {
        hospitalLocationId: 'HL-1002',
        name: 'Pacific Oncology - Bellevue Infusion Center',
        address: { street: '1450 116th Avenue NE', city: 'Bellevue', state: 'WA', country: 'US', postalCode: '98004', telephone: '4255550182', fax: '4255550183' },
      },
    ],
  },
  {
    accountId: 'ACC-1002',
    name: 'Lakeside Cancer Center',
    sfdcId: '0015e00000LakCaAAA',
    address: { street: '875 North Lake Shore Drive', city: 'Chicago', state: 'IL', postalCode: '60611', country: 'US' },
    locations: [
      {
        hospitalLocationId: 'HL-1003',
        name: 'Lakeside Cancer Center - Streeterville',
        address: { street: '875 North Lake Shore Drive', city: 'Chicago', state: 'IL', country: 'US', postalCode: '60611', telephone: '3125550117', fax: '3125550118' },
      },
      {
        hospitalLocationId: 'HL-1004',
        name: 'Lakeside Cancer Center - Evanston',
        address: { street: '2650 Ridge Avenue', city: 'Evanston', state: 'IL', country: 'US', postalCode: '60201', telephone: '8475550163', fax: '8475550164' },
      },
    ],
  },
] as const;

/** account index (into DEMO_ACCOUNTS) and location indexes per physician */
export const DEMO_PHYSICIANS = [
  { npiBase: '154873296', firstName: 'Elena', middleName: 'M', lastName: 'Marquez', account: 0, locations: [0, 1], status: 'ACTIVE' },
  { npiBase: '163928475', firstName: 'David', middleName: null, lastName: 'Okafor', account: 0, locations: [0], status: 'ACTIVE' },
  { npiBase: '172635849', firstName: 'Priya', middleName: 'S', lastName: 'Raman', account: 1, locations: [0, 1], status: 'ACTIVE' },
  { npiBase: '138476592', firstName: 'Michael', middleName: 'J', lastName: 'Brennan', account: 1, locations: [1], status: 'ACTIVE' },
  { npiBase: '195847362', firstName: 'Laura', middleName: null, lastName: 'Whitfield', account: 0, locations: [1], status: 'SUSPENDED' },
] as const;

export const DEMO_PATHOLOGISTS = [
  { npiBase: '146283957', name: 'Dr. Samuel Lindqvist', account: 0, phone: '2065550190', email: 'slindqvist@pacificpath.example.org', fax: '2065550191' },
  { npiBase: '187362945', name: 'Dr. Amara Nwosu', account: 1, phone: '3125550175', email: 'anwosu@lakesidepath.example.org', fax: '3125550176' },
] as const;

/** physician index into DEMO_PHYSICIANS (the account follows the physician) */
export const DEMO_PATIENTS = [
  { firstName: 'Margaret', middleName: 'A', lastName: 'Holloway', dob: '1958-03-14', sex: 'FEMALE', physician: 0, diagnosis: 'BREAST', mrn: 'POA-448120', city: 'Seattle', state: 'WA', zip: '98122', street: '1523 E Pine Street' },
  { firstName: 'James', middleName: null, lastName: 'Fitzgerald', dob: '1949-11-02', sex: 'MALE', physician: 0, diagnosis: 'PROSTATE', mrn: 'POA-448377', city: 'Kirkland', state: 'WA', zip: '98033', street: '410 Market Street' },
  { firstName: 'Aiko', middleName: null, lastName: 'Tanaka', dob: '1971-06-21', sex: 'FEMALE', physician: 1, diagnosis: 'LUNG', mrn: 'POA-449002', city: 'Renton', state: 'WA', zip: '98057', street: '88 Logan Avenue S' },
  { firstName: 'Robert', middleName: 'L', lastName: 'Castillo', dob: '1963-09-30', sex: 'MALE', physician: 1, diagnosis: 'COLORECTAL', mrn: 'POA-449515', city: 'Seattle', state: 'WA', zip: '98115', street: '7021 35th Avenue NE' },
  { firstName: 'Hannah', middleName: null, lastName: 'Berg', dob: '1985-01-17', sex: 'FEMALE', physician: 0, diagnosis: 'MELANOMA', mrn: 'POA-450031', city: 'Bellevue', state: 'WA', zip: '98006', street: '15 Lakemont Blvd SE' },
  { firstName: 'Thomas', middleName: 'E', lastName: 'Wright', dob: '1955-04-08', sex: 'MALE', physician: 2, diagnosis: 'LUNG', mrn: 'LCC-210884', city: 'Chicago', state: 'IL', zip: '60614', street: '2230 N Lincoln Avenue' },
  { firstName: 'Maria', middleName: 'C', lastName: 'Delgado', dob: '1968-12-19', sex: 'FEMALE', physician: 2, diagnosis: 'BREAST', mrn: 'LCC-211306', city: 'Oak Park', state: 'IL', zip: '60302', street: '640 Wesley Avenue' },
  { firstName: 'Kwame', middleName: null, lastName: 'Mensah', dob: '1976-07-03', sex: 'MALE', physician: 3, diagnosis: 'COLORECTAL', mrn: 'LCC-211957', city: 'Evanston', state: 'IL', zip: '60201', street: '1809 Asbury Avenue' },
  { firstName: 'Susan', middleName: 'R', lastName: 'Kowalski', dob: '1952-02-25', sex: 'FEMALE', physician: 3, diagnosis: 'OTHER', mrn: 'LCC-212440', city: 'Skokie', state: 'IL', zip: '60076', street: '4920 Oakton Street' },
  { firstName: 'Daniel', middleName: null, lastName: 'Reyes', dob: '1980-10-11', sex: 'MALE', physician: 2, diagnosis: 'MELANOMA', mrn: 'LCC-213018', city: 'Chicago', state: 'IL', zip: '60657', street: '3150 N Sheffield Avenue' },
] as const;

/** Common commercial and government payors with their claims (EDI) payer ids. */
export const DEMO_PAYORS = [
  { name: 'Medicare Part B - Noridian JF', payorGroup: 'MEDICARE', payorId: '02402', street: 'PO Box 6774', city: 'Fargo', state: 'ND', zipCode: '58108' },
  { name: 'Medicare Part B - NGS J6', payorGroup: 'MEDICARE', payorId: '06102', street: 'PO Box 6475', city: 'Indianapolis', state: 'IN', zipCode: '46206' },
  { name: 'Washington Apple Health (Medicaid)', payorGroup: 'MEDICAID', payorId: 'WAMCD', street: 'PO Box 45505', city: 'Olympia', state: 'WA', zipCode: '98504' },
  { name: 'Illinois Medicaid (HFS)', payorGroup: 'MEDICAID', payorId: 'ILMCD', street: '201 South Grand Avenue East', city: 'Springfield', state: 'IL', zipCode: '62763' },
  { name: 'Aetna', payorGroup: 'COMMERCIAL', payorId: '60054', street: 'PO Box 981106', city: 'El Paso', state: 'TX', zipCode: '79998' },
  { name: 'UnitedHealthcare', payorGroup: 'COMMERCIAL', payorId: '87726', street: 'PO Box 30555', city: 'Salt Lake City', state: 'UT', zipCode: '84130' },
  { name: 'Cigna Healthcare', payorGroup: 'COMMERCIAL', payorId: '62308', street: 'PO Box 188061', city: 'Chattanooga', state: 'TN', zipCode: '37422' },
  { name: 'Humana', payorGroup: 'COMMERCIAL', payorId: '61101', street: 'PO Box 14601', city: 'Lexington', state: 'KY', zipCode: '40512' },
  { name: 'Blue Cross and Blue Shield of Illinois', payorGroup: 'BCBS', payorId: '00621', street: 'PO Box 805107', city: 'Chicago', state: 'IL', zipCode: '60680' },
  { name: 'Premera Blue Cross', payorGroup: 'BCBS', payorId: '00430', street: 'PO Box 91059', city: 'Seattle', state: 'WA', zipCode: '98111' },
] as const;

export const DEMO_RELEASE_NOTE = {
  majorRevision: 1,
  minorRevision: 0,
  patchRevision: 0,
  name: 'Clinical Portal 1.0',
  featureNoteVOs: [
    {
      title: 'Electronic test requisition forms',
      featureNoteItemVOs: [
        { title: 'Order NEXT_DX and NEXT_PERSONAL_DX tests in a guided nine-step wizard', subFeatureNoteItemVOs: [{ title: 'Drafts are saved at every step' }, { title: 'Sign with your own password' }] },
        { title: 'ICD-10-CM and OncoTree diagnosis pickers', subFeatureNoteItemVOs: [{ title: 'Search by code, abbreviation or keyword' }] },
      ],
    },
    {
      title: 'Tracking',
      featureNoteItemVOs: [{ title: 'Follow tests and samples from submission to report', subFeatureNoteItemVOs: [] }],
    },
  ],
};

export const npiOf = (base: string) => makeNpi(base);
