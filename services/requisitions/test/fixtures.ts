/** Requisition bodies for the API tests: a complete NEXT_DX order and helpers around it. */
export const TEST_ORDER_FORMS = '/portal/api/v1/testOrderForms';

export const isoDaysAgo = (days: number, now = new Date()) =>
  new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

export interface Parties {
  accountId: string;
  physicianId: string;
  patientId?: string | null;
}

/** Everything a NEXT_DX order needs to be submitted (except the signature). */
export function completeForm(p: Parties): Record<string, any> {
  return {
    orderInformation: { nextDx: true, nextPersonalDx: false, orderType: null },
    patient: {
      id: p.patientId === undefined ? 'pat-1' : p.patientId,
      userId: 'PAT-000001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      name: 'Ada Lovelace',
      dateOfBirth: '1961-02-03',
      birthSex: 'FEMALE',
      phone: '6195550100',
      mrn: 'MRN-77',
      address: { street: '1 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101', country: 'US' },
    },
    physician: {
      id: p.physicianId,
      userId: '1234567893',
      firstName: 'Grace',
      lastName: 'Hopper',
      name: 'Grace Hopper',
      email: 'grace.hopper@clinic.example.org',
      phone: '6195550111',
    },
    account: { id: p.accountId, accountId: 'ACC-1', name: 'Alpha Oncology' },
    hospitalLocation: {
      id: 'loc-1',
      name: 'Alpha Main Campus',
      address: { street: '2 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101', country: 'US' },
    },
    tumorSpecimen: {
      diagnosis: 'LUNG',
      specimenType: 'FFPE_BLOCK',
      specimenId: 'BLK-2026_01',
      collectionDate: isoDaysAgo(20),
      icd10Codes: 'C34.90,Z85.118',
      stage: 'III',
    },
    normalSpecimen: {
      specimenType: 'BLOOD',
      collectionMode: 'COLLECT_IN_CLINIC',
      collectionDate: isoDaysAgo(2),
    },
    billings: [{ billingType: 'SELF', preference: 'PRIMARY' }],
    consent: true,
  };
}

/** A Medicare primary billing without its policy number: Review Complete on billing is refused while it stands. */
export function medicareWithoutPolicyNumber(): Record<string, unknown> {
  return {
    billingType: 'MEDICARE',
    preference: 'PRIMARY',
    insuranceProvider: 'Medicare',
    payorId: 'MCR',
    insuredName: 'Ada Lovelace',
    insuredDob: '1961-02-03',
    relationshipToPatient: 'SELF',
  };
}
