import { describe, expect, it } from 'vitest';
import {
  attachmentKindOptions,
  billingFields,
  insuranceFieldsVisible,
  needsTumor,
  normalSpecimenTypeOptions,
  orderTypeEnabled,
  personalOrderType,
  plannedTestOrders,
  requiresTumorAndNormal,
  tumorSpecimenTypeOptions,
} from './options';

describe('plannedTestOrders (order information change rebuilds the test orders)', () => {
  it('given no test, then no order', () => {
    expect(plannedTestOrders({})).toEqual([]);
    expect(plannedTestOrders({ nextDx: false, nextPersonalDx: null, orderType: 'SUBSEQUENT_ORDER' })).toEqual(
      [],
    );
  });
  it('given nextDx, then one NEXT_DX initial order', () => {
    expect(plannedTestOrders({ nextDx: true })).toEqual([
      { testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' },
    ]);
  });
  it('given nextPersonalDx without an order type, then a NEXT_PERSONAL_DX initial order (the default)', () => {
    expect(plannedTestOrders({ nextPersonalDx: true })).toEqual([
      { testType: 'NEXT_PERSONAL_DX', orderType: 'INITIAL_ORDER' },
    ]);
  });
  it('given nextPersonalDx with its order type, then that order type', () => {
    expect(plannedTestOrders({ nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' })).toEqual([
      { testType: 'NEXT_PERSONAL_DX', orderType: 'SUBSEQUENT_ORDER' },
    ]);
  });
  it('given both tests, then both orders, the personalized one initial', () => {
    expect(plannedTestOrders({ nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' })).toEqual([
      { testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' },
      { testType: 'NEXT_PERSONAL_DX', orderType: 'INITIAL_ORDER' },
    ]);
  });
  it('given both tests and a subsequent order type, then the personalized order is initial (its order type is disabled)', () => {
    expect(plannedTestOrders({ nextDx: true, nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' })).toEqual([
      { testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' },
      { testType: 'NEXT_PERSONAL_DX', orderType: 'INITIAL_ORDER' },
    ]);
  });
  it('order type helpers follow the same rule', () => {
    expect(personalOrderType({ nextDx: true })).toBeNull();
    expect(personalOrderType({ nextDx: true, nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' })).toBe(
      'INITIAL_ORDER',
    );
    expect(orderTypeEnabled({ nextPersonalDx: true })).toBe(true);
    expect(orderTypeEnabled({ nextDx: true, nextPersonalDx: true })).toBe(false);
    expect(orderTypeEnabled({ nextDx: true })).toBe(false);
  });
  it('tumor and matched normal are required for NeXT Dx + NeXT Personal Dx initial; a tumor for any tumor-informed order', () => {
    expect(requiresTumorAndNormal({ nextDx: true, nextPersonalDx: true })).toBe(true);
    expect(requiresTumorAndNormal({ nextDx: true })).toBe(false);
    expect(requiresTumorAndNormal({ nextPersonalDx: true })).toBe(false);
    expect(needsTumor({ nextDx: true })).toBe(true);
    expect(needsTumor({ nextPersonalDx: true })).toBe(true);
    expect(needsTumor({ nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' })).toBe(false);
    expect(needsTumor({})).toBe(false);
  });
});

describe('specimen type options', () => {
  it('given a NeXT Personal Dx order, then FRESH_FROZEN_TISSUE is removed from the tumor types', () => {
    expect(tumorSpecimenTypeOptions({ nextPersonalDx: true })).toEqual(['FFPE_SLIDES', 'FFPE_BLOCK']);
    expect(tumorSpecimenTypeOptions({ nextDx: true, nextPersonalDx: true })).toEqual([
      'FFPE_SLIDES',
      'FFPE_BLOCK',
    ]);
  });
  it('given NeXT Dx alone or nothing, then every tumor type', () => {
    const all = ['FFPE_SLIDES', 'FFPE_BLOCK', 'FRESH_FROZEN_TISSUE'];
    expect(tumorSpecimenTypeOptions({ nextDx: true })).toEqual(all);
    expect(tumorSpecimenTypeOptions({})).toEqual(all);
  });
  it('given the personalized test, then only BLOOD (initial, alone or with NeXT Dx)', () => {
    expect(normalSpecimenTypeOptions({ nextPersonalDx: true })).toEqual(['BLOOD']);
    expect(normalSpecimenTypeOptions({ nextDx: true, nextPersonalDx: true })).toEqual(['BLOOD']);
    expect(
      normalSpecimenTypeOptions({ nextDx: true, nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' }),
    ).toEqual(['BLOOD']);
  });
  it('given a subsequent personalized order, then BLOOD and PLASMA', () => {
    expect(normalSpecimenTypeOptions({ nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' })).toEqual([
      'BLOOD',
      'PLASMA',
    ]);
  });
  it('given a single NeXT Dx order (even with a stale subsequent order type) or nothing, then no PLASMA', () => {
    const normal = ['BLOOD', 'SALIVA', 'BUFFY_COAT'];
    expect(normalSpecimenTypeOptions({ nextDx: true })).toEqual(normal);
    expect(normalSpecimenTypeOptions({ nextDx: true, orderType: 'SUBSEQUENT_ORDER' })).toEqual(normal);
    expect(normalSpecimenTypeOptions({})).toEqual(normal);
  });
});

describe('billingFields', () => {
  const insurance = [
    'insuranceProvider',
    'payorId',
    'insuredName',
    'insuredDob',
    'policyNumber',
    'groupNumber',
    'priorAuthorizationNumber',
    'relationshipToPatient',
  ];
  const insuranceRequired = [
    'insuranceProvider',
    'payorId',
    'insuredName',
    'insuredDob',
    'policyNumber',
    'relationshipToPatient',
  ];
  it('INSURANCE: the insurance fields, group and prior authorization optional', () => {
    expect(billingFields('INSURANCE')).toEqual({ visible: insurance, required: insuranceRequired });
  });
  it.each(['MEDICARE', 'MEDICAID'])(
    '%s: as insurance plus patient status; discharge date only for INPATIENT_DISCHARGED',
    (t) => {
      expect(billingFields(t, 'INPATIENT')).toEqual({
        visible: [...insurance, 'patientStatus'],
        required: insuranceRequired,
      });
      expect(billingFields(t, null)).toEqual({
        visible: [...insurance, 'patientStatus'],
        required: insuranceRequired,
      });
      expect(billingFields(t, 'INPATIENT_DISCHARGED')).toEqual({
        visible: [...insurance, 'patientStatus', 'dischargeDate'],
        required: [...insuranceRequired, 'dischargeDate'],
      });
    },
  );
  it('FACILITY: facility type required; OTHER: Please Specify optional; SELF and none: nothing', () => {
    expect(billingFields('FACILITY')).toEqual({
      visible: ['facilityTypeName'],
      required: ['facilityTypeName'],
    });
    expect(billingFields('OTHER')).toEqual({ visible: ['otherTypeName'], required: [] });
    expect(billingFields('SELF')).toEqual({ visible: [], required: [] });
    expect(billingFields(null)).toEqual({ visible: [], required: [] });
  });
  it('insurance fields are hidden for SELF, FACILITY and OTHER', () => {
    expect(['INSURANCE', 'MEDICARE', 'MEDICAID'].map(insuranceFieldsVisible)).toEqual([true, true, true]);
    expect(['SELF', 'FACILITY', 'OTHER', null].map(insuranceFieldsVisible)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('attachmentKindOptions', () => {
  it('given primary billing INSURANCE, then INSURANCE and ABN are hidden', () => {
    const kinds = attachmentKindOptions({ primaryBillingType: 'INSURANCE' });
    expect(kinds).not.toContain('INSURANCE');
    expect(kinds).not.toContain('ABN');
    expect(attachmentKindOptions({ primaryBillingType: 'MEDICARE' })).toEqual(
      expect.arrayContaining(['INSURANCE', 'ABN']),
    );
  });
  it('given an order with financial assistance (the server says so), then FINANCIAL_ASSISTANCE is offered; otherwise not', () => {
    expect(attachmentKindOptions({ financialAssistance: true })).toContain('FINANCIAL_ASSISTANCE');
    expect(attachmentKindOptions({ financialAssistance: false })).not.toContain('FINANCIAL_ASSISTANCE');
    expect(attachmentKindOptions({})).not.toContain('FINANCIAL_ASSISTANCE');
  });
  it('never offers system-made kinds (TRF, reports)', () => {
    expect(attachmentKindOptions({ financialAssistance: true })).not.toContain('TRF');
  });
});
