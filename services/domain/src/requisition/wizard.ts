import type { BlockName, RuleContext } from './validate';
import { requisitionIssues } from './validate';
import type { RequisitionForm } from './schema';

export const STEP_KEYS = [
  'patient',
  'provider',
  'pathology',
  'additionalProvider',
  'specimen',
  'billing',
  'attachments',
  'summary',
  'authorization',
] as const;
export type StepKey = (typeof STEP_KEYS)[number];

/** Spec 1 section 2 "Wizard": the nine steps in order with the blocks each holds. */
export const WIZARD_STEPS: readonly { key: StepKey; label: string; blocks: BlockName[] }[] = [
  { key: 'patient', label: 'Patient', blocks: ['testSelection', 'patient'] },
  { key: 'provider', label: 'Provider', blocks: ['provider', 'location', 'account'] },
  { key: 'pathology', label: 'Pathology', blocks: ['pathologist'] },
  { key: 'additionalProvider', label: 'Additional Provider', blocks: ['additionalProvider'] },
  { key: 'specimen', label: 'Specimen', blocks: ['tumorSpecimen', 'normalSpecimen', 'icd10'] },
  { key: 'billing', label: 'Billing', blocks: ['billing'] },
  { key: 'attachments', label: 'Attachments', blocks: ['attachments'] },
  // the Summary step shows the other steps; it has no fields of its own
  { key: 'summary', label: 'Summary', blocks: [] },
  { key: 'authorization', label: 'Authorization', blocks: ['signature'] },
];

export type StepState = 'complete' | 'incomplete' | 'inactive';

export interface StepProgress {
  /** steps whose fields the user changed */
  updated: readonly StepKey[];
  /** steps the user has moved past (Continue, or a jump away) */
  passed: readonly StepKey[];
}

/**
 * Spec 1 section 4 "Wizard step status": complete when the step has no missing required fields and was
 * updated or passed; incomplete when it has missing required fields and was updated or passed; otherwise
 * inactive. Decision: any problem of the step's blocks (a missing value or a value breaking a rule) counts.
 */
export function stepStates(
  form: RequisitionForm,
  ctx: RuleContext,
  progress: StepProgress,
): Record<StepKey, StepState> {
  const blocksWithProblems = new Set(requisitionIssues(form, ctx).map((i) => i.block));
  const out = {} as Record<StepKey, StepState>;
  for (const step of WIZARD_STEPS) {
    const touched = progress.updated.includes(step.key) || progress.passed.includes(step.key);
    const problems = step.blocks.some((b) => blocksWithProblems.has(b));
    out[step.key] = !touched ? 'inactive' : problems ? 'incomplete' : 'complete';
  }
  return out;
}

/** An inactive step header cannot be clicked. */
export function canJumpTo(states: Record<StepKey, StepState>, step: StepKey): boolean {
  return states[step] !== 'inactive';
}

/**
 * 'Continue to Consent' is enabled only when no step is incomplete. Decision: the Authorization step itself is
 * not considered (it is the consent step being continued to; it is incomplete until signed).
 */
export function canContinueToConsent(states: Partial<Record<StepKey, StepState>>): boolean {
  return STEP_KEYS.filter((k) => k !== 'authorization').every((k) => states[k] !== 'incomplete');
}

/** Final submit is enabled only when approvals exist on the order. */
export function canSubmitOrder(form: Pick<RequisitionForm, 'approvals'>): boolean {
  return (form.approvals ?? []).length > 0;
}

/** Save & Exit is absent on the first and last steps. */
export function showSaveAndExit(step: StepKey): boolean {
  return step !== STEP_KEYS[0] && step !== STEP_KEYS[STEP_KEYS.length - 1];
}
