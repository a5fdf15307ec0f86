/**
 * The vocabulary of the requisition form's validation (validate.ts): its blocks, its issues, the labels of its
 * messages, and the value helpers the rules share.
 */
import type { BillingForm } from './schema';

/** The blocks of the requisition form; each wizard step holds one or more (WIZARD_STEPS). */
export const BLOCK_NAMES = [
  'testSelection',
  'patient',
  'provider',
  'account',
  'location',
  'pathologist',
  'additionalProvider',
  'tumorSpecimen',
  'normalSpecimen',
  'billing',
  'icd10',
  'attachments',
  'signature',
] as const;
export type BlockName = (typeof BLOCK_NAMES)[number];

/** Dotted field path (from the form's root, arrays by index: 'billings.0.policyNumber') -> message. */
export type FieldErrors = Record<string, string>;

export interface RuleContext {
  /** 'YYYY-MM-DD', the caller's clock */
  today: string;
  /** the user's granted permissions (IS_*_OPTIONAL relax required-ness) */
  permissions: readonly string[];
  /** the one account that gets the financial assistance attachment */
  financialAssistanceAccountId?: string | null;
}

/**
 * 'required': a missing value (drafts may be saved with these); 'invalid': a value that breaks a rule (format,
 * range, option) and must not be stored. saveProblems reports only 'invalid' issues.
 */
export type IssueKind = 'required' | 'invalid';
export interface Issue {
  block: BlockName;
  path: string;
  message: string;
  kind: IssueKind;
}

/** Field names used in 'Invalid {Field name}' (decision: the form's visible labels). */
export const FIELD_LABELS = {
  phone: 'Phone',
  fax: 'Fax',
  email: 'Email',
  city: 'City',
  zip: 'Zip Code',
  specimenId: 'Specimen ID',
  specimenType: 'Specimen Type',
} as const;

export const ICD10_MAX_CODES = 6;

export function isBlank(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0)
  );
}

/** The ICD-10 codes of the comma-separated field, trimmed, empty entries dropped. */
export function icd10List(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/**
 * The primary billing's index: the entry with preference PRIMARY, else the first entry without a preference;
 * 0 when there is no billing at all (the console's first row); -1 when every entry is SECONDARY/OTHER.
 */
export function primaryBillingIndex(billings: readonly BillingForm[] | null | undefined): number {
  const list = billings ?? [];
  if (list.length === 0) return 0;
  const primary = list.findIndex((b) => b.preference === 'PRIMARY');
  return primary >= 0 ? primary : list.findIndex((b) => !b.preference);
}
