/** Shared test data for the requisition rule tests (not exported from the package). */
import type { RequisitionForm } from './schema';
import type { RuleContext } from './validate';

export const TODAY = '2026-11-21';
export const ctx = (...permissions: string[]): RuleContext => ({ today: TODAY, permissions });

/** A requisition that passes every rule on TODAY (NEXT_DX + NEXT_PERSONAL_DX initial, signed). */
export function completeForm(): RequisitionForm {
  return {
    status: 'DRAFT',
    orderInformation: { nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' },
    patient: {
      id: 'pat-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1960-05-04',
      birthSex: 'FEMALE',
      phone: '(555) 123-4567',
      email: 'ada@example.org',
      address: { street: '1 Main St', city: 'St. Louis', state: 'MO', postalCode: '63101-1234' },
    },
    physician: {
      id: 'doc-1',
      firstName: 'Gregory',
      lastName: 'House',
      email: 'house@example.org',
      phone: '5551234567',
    },
    account: { id: 'acc-1', accountId: 'A-1', name: 'Princeton Plainsboro' },
    hospitalLocation: {
      id: 'loc-1',
      name: 'Main campus',
      address: {
        street: '2 Hospital Rd',
        city: 'Princeton',
        state: 'NJ',
        postalCode: '08540',
        telephone: '5550001111',
      },
    },
    tumorSpecimen: {
      diagnosis: 'BREAST',
      icd10Codes: 'C50.911,C50.912',
      specimenType: 'FFPE_BLOCK',
      specimenId: 'S-01_a',
      collectionDate: '2026-10-01',
      dateOfDiagnosis: '2026-09-01',
      stage: 'II',
      drugName: 'Tamoxifen',
      content: 35,
    },
    normalSpecimen: {
      specimenType: 'BLOOD',
      collectionMode: 'COLLECT_IN_CLINIC',
      collectionDate: '2026-11-20',
    },
    billings: [
      {
        billingType: 'INSURANCE',
        preference: 'PRIMARY',
        insuranceProvider: 'Aetna',
        payorId: 'P-1',
        insuredName: 'Ada Lovelace',
        insuredDob: '1960-05-04',
        policyNumber: 'pol-123',
        relationshipToPatient: 'SELF',
      },
    ],
    attachments: [],
    approvals: [{ approvedBy: { id: 'doc-1', name: 'Gregory House' }, createdOn: '2026-11-21T10:00:00Z' }],
    consent: true,
  };
}
