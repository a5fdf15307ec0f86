/**
 * A form path as people read it: its section and its field, in the wizard's words (e.g. `tumorSpecimen.stage` is
 * "Tumor Specimen: Stage", `billings.0.policyNumber` "Primary Billing: Policy number"). Used where the server names
 * what changed by path (requisition-changed `form-edited` changedFields).
 */
import { useCallback } from 'react';
import { BILLING_FIELD_LABELS } from '@onco/domain';
import { useWizardT } from './useWizardT';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A form block's wizard section (`wizard.sections.*`). */
const SECTIONS: Record<string, string> = {
  orderInformation: 'testSelection',
  patient: 'patient',
  physician: 'orderingProvider',
  account: 'account',
  hospitalLocation: 'location',
  pathologist: 'pathologist',
  pathologistLocation: 'pathologistLocation',
  additionalPhysician: 'additionalProvider',
  additionalPhysicianLocation: 'additionalProviderLocation',
  tumorSpecimen: 'tumor',
  normalSpecimen: 'blood',
  consent: 'consent',
};

/** Fields whose wizard label is not named by the field itself (`wizard.fields.*`). */
const FIELDS: Record<string, string> = {
  'tumorSpecimen.specimenType': 'tumorSpecimenType',
  'normalSpecimen.specimenType': 'normalSpecimenType',
  'normalSpecimen.isPreSurgicalOrPreBiopsySample': 'preSurgical',
  'hospitalLocation.name': 'locationName',
  'pathologistLocation.name': 'locationName',
  'additionalPhysicianLocation.name': 'locationName',
  'account.name': 'accountName',
};

/** camelCase as words: `policyNumber` is "Policy number". */
const words = (s: string) => {
  const w = s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** A path's section and field labels. */
function labelsOf(path: string, t: Translate): { section: string; field: string | null } {
  const [block, ...rest] = path.split('.');
  const label = (key: string, fallback: string) => {
    const text = t(key);
    return text === key ? fallback : text;
  };
  let section: string;
  let fields = rest;
  if (block === 'billings') {
    const index = Number(rest[0]);
    section = label(
      `wizard.sections.${index === 0 ? 'primaryBilling' : 'secondaryBilling'}`,
      `Billing ${index + 1}`,
    );
    fields = rest.slice(1);
  } else {
    section = SECTIONS[block] ? label(`wizard.sections.${SECTIONS[block]}`, words(block)) : words(block);
  }
  // the field's own name: the last segment that is not a list index (an address's street, a list's entry)
  const field = [...fields].reverse().find((s) => !/^\d+$/.test(s));
  if (!field) return { section, field: null };
  if (block === 'billings') {
    const known = (BILLING_FIELD_LABELS as Record<string, string>)[field];
    return { section, field: known ?? words(field) };
  }
  const key = FIELDS[`${block}.${fields.join('.')}`] ?? field;
  return { section, field: label(`wizard.fields.${key}`, words(field)) };
}

export function fieldPathLabel(path: string, t: Translate): string {
  const { section, field } = labelsOf(path, t);
  return field ? `${section}: ${field}` : section;
}

/**
 * Several paths as one text, each section named once: "Primary Billing: Billing Type, Policy Number; Tumor
 * Specimen: Stage" (a field listed twice, as a list's entries, once).
 */
export function fieldPathsText(paths: readonly string[], t: Translate): string {
  const bySection = new Map<string, string[]>();
  for (const p of paths) {
    const { section, field } = labelsOf(p, t);
    const list = bySection.get(section) ?? [];
    if (field && !list.includes(field)) list.push(field);
    bySection.set(section, list);
  }
  return [...bySection]
    .map(([section, fields]) => (fields.length ? `${section}: ${fields.join(', ')}` : section))
    .join('; ');
}

/** `fieldPathsText` in the user's language. */
export function useFieldPathsText(): (paths: readonly string[]) => string {
  const t = useWizardT();
  return useCallback((paths: readonly string[]) => fieldPathsText(paths, t), [t]);
}
