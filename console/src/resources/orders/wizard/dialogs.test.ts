import { describe, expect, it } from 'vitest';
import { DX_ROOT, dxDoneEnabled, dxSelectable, parseStoredDx } from './DiagnosisDialog';
import { billingFromInsurance } from './steps/BillingStep';
import { ATTACHMENT_MAX_BYTES as MAX_ATTACHMENT_BYTES } from '@onco/domain';
import { pickPatient } from './steps/PatientStep';
import { pickProvider, providerFromNpi, withOrderChoices } from './steps/ProviderStep';

describe('primary diagnosis modal rules', () => {
  it('tissue-level nodes (children of the root, level 1) are not selectable', () => {
    expect(dxSelectable({ code: 'BREAST', name: 'Breast' }, DX_ROOT)).toBe(false);
    expect(dxSelectable({ code: 'BREAST', name: 'Breast', level: 1 }, null)).toBe(false);
    expect(dxSelectable({ code: DX_ROOT, name: 'Tissue' }, null)).toBe(false);
    expect(dxSelectable({ code: 'IDC', name: 'IDC' }, 'BRCA')).toBe(true);
    expect(dxSelectable({ code: 'DCIS', name: 'DCIS', level: 2 }, null)).toBe(true);
  });
  it('Done needs a selection different from the stored one', () => {
    expect(dxDoneEnabled(null, null)).toBe(false);
    expect(dxDoneEnabled('IDC', 'IDC')).toBe(false);
    expect(dxDoneEnabled('IDC', 'DCIS')).toBe(true);
    expect(dxDoneEnabled('IDC', undefined)).toBe(true);
  });
  it('reads the stored JSON text; anything else is no stored diagnosis', () => {
    expect(
      parseStoredDx('{"code":"IDC","parentCode":"BRCA","octDxBreadCrumb":"Breast (BREAST)"}')?.code,
    ).toBe('IDC');
    expect(parseStoredDx('Breast (BREAST)')).toBeNull();
    expect(parseStoredDx(null)).toBeNull();
  });
});

describe('pickers fill the blocks', () => {
  it('a saved patient insurance fills the billing fields and remembers its id', () => {
    const b = billingFromInsurance({
      id: 'ins-1',
      billingType: 'INSURANCE',
      insuranceProvider: 'Aetna',
      policyNumber: 'P-1',
      isDefault: true,
      createdOn: 'x',
    });
    expect(b).toEqual({
      billingType: 'INSURANCE',
      insuranceProvider: 'Aetna',
      policyNumber: 'P-1',
      patientInsuranceId: 'ins-1',
    });
  });
  it('a picked patient keeps only the form fields', () => {
    expect(pickPatient({ id: 'p1', userId: 'PAT-1', firstName: 'A', accountIds: ['x'], version: 3 })).toEqual(
      {
        id: 'p1',
        userId: 'PAT-1',
        firstName: 'A',
      },
    );
  });
  it('picking another ordering provider keeps the report delivery method the order chose', () => {
    const current = { id: 'd1', lastName: 'House', fax: '5551234567', deliveryMethod: 'FAX' as const };
    const picked = pickProvider({ id: 'd2', lastName: 'Wilson', fax: null, accountIds: ['a'] });
    expect(withOrderChoices(picked, current)).toEqual({
      id: 'd2',
      lastName: 'Wilson',
      fax: null,
      deliveryMethod: 'FAX',
    });
    const fromNpi = providerFromNpi({ userId: '1234567893', lastName: 'Cuddy' } as never);
    expect(withOrderChoices(fromNpi, current)).toMatchObject({ userId: '1234567893', deliveryMethod: 'FAX' });
    expect(withOrderChoices(picked, null).deliveryMethod).toBeNull();
  });
  it('attachments: 50MB limit', () => {
    expect(MAX_ATTACHMENT_BYTES).toBe(52_428_800);
  });
});

describe('NPI lookup', () => {
  it('a 10-digit number wins; else a first name of 2+ characters (with the last name when given)', async () => {
    const { npiQuery } = await import('./NpiLookupDialog');
    expect(npiQuery('Jo', 'Smith', '(163) 928-4755')).toEqual({ number: '1639284755' });
    expect(npiQuery('Jo', '', '123')).toEqual({ firstName: 'Jo' });
    expect(npiQuery(' Jo ', ' Smith ', '')).toEqual({ firstName: 'Jo', lastName: 'Smith' });
    expect(npiQuery('J', 'Smith', '')).toBeNull();
  });
});
