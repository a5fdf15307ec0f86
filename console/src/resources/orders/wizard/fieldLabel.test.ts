import { describe, expect, it } from 'vitest';
import { fieldPathLabel, fieldPathsText } from './fieldLabel';
import { wizardText } from './useWizardT';

const t = (key: string) => wizardText(key);

describe('a form path as people read it', () => {
  it("names the section and the field in the wizard's words", () => {
    expect(fieldPathLabel('tumorSpecimen.priorTherapies', t)).toBe('Tumor Specimen: Prior Therapies');
    expect(fieldPathLabel('tumorSpecimen.specimenType', t)).toBe(
      `Tumor Specimen: ${wizardText('wizard.fields.tumorSpecimenType')}`,
    );
    expect(fieldPathLabel('normalSpecimen.specimenType', t)).toBe(
      `Normal / Blood Specimen: ${wizardText('wizard.fields.normalSpecimenType')}`,
    );
    expect(fieldPathLabel('patient.address.street', t)).toBe(
      `Patient: ${wizardText('wizard.fields.street')}`,
    );
  });

  it('a list entry is its list; billing is primary or secondary; an unknown field is its words', () => {
    expect(fieldPathLabel('tumorSpecimen.currentTherapies.1', t)).toBe(
      `Tumor Specimen: ${wizardText('wizard.fields.currentTherapies')}`,
    );
    expect(fieldPathLabel('billings.0.policyNumber', t)).toBe('Primary Billing: Policy Number');
    expect(fieldPathLabel('billings.1.insuranceProvider', t)).toBe('Secondary Billing: Insurance Provider');
    expect(fieldPathLabel('kitId', t)).toBe('Kit id');
  });

  it('several paths name each section once, and a list once', () => {
    expect(
      fieldPathsText(
        [
          'billings.0.billingType',
          'billings.0.policyNumber',
          'tumorSpecimen.priorTherapies.0',
          'tumorSpecimen.priorTherapies.1',
          'tumorSpecimen.stage',
        ],
        t,
      ),
    ).toBe('Primary Billing: Billing Type, Policy Number; Tumor Specimen: Prior Therapies, Stage');
    expect(fieldPathsText([], t)).toBe('');
  });
});
