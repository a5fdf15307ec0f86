import { describe, expect, it } from 'vitest';
import { addressComplete, primaryBilling, requisitionBillingSummary } from './billing-summary';

describe('the billing summary a requisition gives the billing service (events v4)', () => {
  const address = { street: '1 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101' };

  it('bills the PRIMARY entry, else the first entry with a billing type', () => {
    const secondary = { billingType: 'SELF' as const, preference: 'SECONDARY' };
    const primary = { billingType: 'INSURANCE' as const, preference: 'PRIMARY', payorId: 'P1' };
    expect(primaryBilling([secondary, primary])).toBe(primary);
    expect(primaryBilling([{ billingType: null }, secondary])).toBe(secondary);
    expect(primaryBilling([])).toBeNull();
    expect(primaryBilling(null)).toBeNull();
  });

  it('needs street, city, state and postal code for a complete address', () => {
    expect(addressComplete(address)).toBe(true);
    expect(addressComplete({ ...address, postalCode: ' ' })).toBe(false);
    expect(addressComplete({ ...address, street: null })).toBe(false);
    expect(addressComplete(null)).toBe(false);
  });

  it('gives type, payor and whether the address is complete, never the address or policy numbers', () => {
    const summary = requisitionBillingSummary({
      billings: [
        {
          billingType: 'MEDICARE',
          preference: 'PRIMARY',
          payorId: ' MCR-B ',
          insuranceProvider: 'Medicare Part B',
          policyNumber: '1EG4-TE5-MK72',
        } as never,
      ],
      patient: { address },
    });
    expect(summary).toEqual({
      billingType: 'MEDICARE',
      payorId: 'MCR-B',
      payorName: 'Medicare Part B',
      patientAddressComplete: true,
      // no NeXT Personal Dx test: Medicare needs nothing more of the form
      medicareDataMissing: [],
    });
    expect(requisitionBillingSummary({})).toEqual({
      billingType: null,
      payorId: null,
      payorName: null,
      patientAddressComplete: false,
      medicareDataMissing: [],
    });
  });

  it('names what Medicare needs of a NeXT Personal Dx order and the form lacks (never the values)', () => {
    const summary = requisitionBillingSummary({
      billings: [{ billingType: 'MEDICARE', preference: 'PRIMARY' } as never],
      orderInformation: { nextPersonalDx: true },
      tumorSpecimen: { stage: 'II', icd10Codes: 'C50.911' },
    });
    expect(summary.medicareDataMissing).toEqual(['drugName']);
  });
});
