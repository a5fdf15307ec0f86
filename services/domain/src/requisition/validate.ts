/**
 * The requisition form's validation (spec 1 section 5): its issues, by block, for a submit, a save and the
 * wizard. The rules are in section-checks.ts (one checker a section), their vocabulary in issues.ts.
 */
import { dateWindows } from './dates';
import { Collector } from './issue-collector';
import {
  icd10List,
  isBlank,
  BLOCK_NAMES,
  type BlockName,
  type FieldErrors,
  type Issue,
  type RuleContext,
} from './issues';
import { REQ_MSG } from './messages';
import type { RequisitionForm } from './schema';
import {
  checkBilling,
  checkIcd10,
  checkNormalSpecimen,
  checkOtherProviders,
  checkPatient,
  checkProvider,
  checkSignature,
  checkTestSelection,
  checkTumorSpecimen,
  requiredness,
  type SectionContext,
} from './section-checks';

export * from './issues';

/** Every rule of spec 1 section 5, as a flat list of issues (see validateRequisition for the decisions). */
export function requisitionIssues(form: RequisitionForm, ctx: RuleContext): Issue[] {
  const c = new Collector(ctx);
  const sections: SectionContext = { windows: dateWindows(ctx.today), required: requiredness(ctx) };
  checkTestSelection(c, form, sections);
  checkPatient(c, form, sections);
  checkProvider(c, form, sections);
  checkOtherProviders(c, form);
  checkTumorSpecimen(c, form, sections);
  checkIcd10(c, form, sections);
  checkNormalSpecimen(c, form, sections);
  checkBilling(c, form, sections);
  checkSignature(c, form);
  return c.issues;
}

function byBlock(issues: Issue[], all: boolean): Partial<Record<BlockName, FieldErrors>> {
  const out: Partial<Record<BlockName, FieldErrors>> = {};
  if (all) for (const b of BLOCK_NAMES) out[b] = {};
  for (const i of issues) (out[i.block] ??= {})[i.path] = i.message;
  return out;
}

/**
 * Every rule of spec 1 section 5 for every block (an empty object for a block without problems).
 * Required-ness is relaxed by IS_TEST_SELECTION_OPTIONAL, IS_PATIENT_INFO_OPTIONAL, IS_PROVIDER_INFO_OPTIONAL
 * (provider, account, location), IS_SPECIMEN_INFO_OPTIONAL (tumor, normal, ICD-10) and IS_BILLING_OPTIONAL.
 * The 'signature' block reports 'approvals' while the requisition is not signed.
 */
export function validateRequisition(form: RequisitionForm, ctx: RuleContext): Record<BlockName, FieldErrors> {
  return byBlock(requisitionIssues(form, ctx), true) as Record<BlockName, FieldErrors>;
}

/** What blocks a submit: only the blocks with problems (including 'signature' when there is no approval). */
export function submitProblems(
  form: RequisitionForm,
  ctx: RuleContext,
): Partial<Record<BlockName, FieldErrors>> {
  return byBlock(requisitionIssues(form, ctx), false);
}

/**
 * What blocks a save (create, draft save): values that break a rule. Missing required values do not block
 * a save: drafts are partial. Only the blocks with problems.
 */
export function saveProblems(
  form: RequisitionForm,
  ctx: RuleContext,
): Partial<Record<BlockName, FieldErrors>> {
  return byBlock(
    requisitionIssues(form, ctx).filter((i) => i.kind === 'invalid'),
    false,
  );
}

/** True when a block map from submitProblems/saveProblems/validateRequisition holds no error. */
export function hasProblems(problems: Partial<Record<BlockName, FieldErrors>>): boolean {
  return Object.values(problems).some((e) => e && Object.keys(e).length > 0);
}

/** What Medicare needs of the tumor specimen for a NEXT_PERSONAL_DX order (spec 1 section 5), by field. */
export const MEDICARE_DATA_FIELDS = ['drugName', 'stage', 'icd10Codes'] as const;
export type MedicareDataField = (typeof MEDICARE_DATA_FIELDS)[number];

/**
 * Spec 1 section 5: when a billing is MEDICARE (decision: primary or secondary) and a NEXT_PERSONAL_DX test is
 * chosen, the drug name, stage and ICD-10 codes it lacks (empty otherwise). The wizard's warning, the billing
 * review gate and the billing service's pre-submit checks (through the requisition's billing summary) read it.
 */
export function medicareDataMissing(form: RequisitionForm): MedicareDataField[] {
  const medicare = (form.billings ?? []).some((b) => b.billingType === 'MEDICARE');
  if (!medicare || !form.orderInformation?.nextPersonalDx) return [];
  const t = form.tumorSpecimen ?? {};
  return MEDICARE_DATA_FIELDS.filter((f) =>
    f === 'icd10Codes' ? icd10List(t.icd10Codes).length === 0 : isBlank(t[f]),
  );
}

/** Spec 1 section 5: the Medicare warning, while Medicare data is missing (medicareDataMissing). */
export function requisitionWarnings(form: RequisitionForm): string[] {
  return medicareDataMissing(form).length ? [REQ_MSG.medicareWarning] : [];
}
