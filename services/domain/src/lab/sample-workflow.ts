/**
 * Whether a sample goes into the lab's job for its requisition (spec 2 section 2.8: "Ignored samples are shown in
 * a different style from added ones. Unused sample in a workflow: 'This sample is incompatible with the assigned
 * workflow. Incompatible samples will not be added to the job.'"; docs/decisions.md "Samples the workflow
 * ignores").
 *
 * A sample's workflow is its `workflowAssignId`, given with its work order by the domain preference found when it
 * was added or last changed (or copied with it from another requisition). The workflow the requisition assigns to
 * it now is that of the domain preference the requisition gives a sample of its kind and specimen type today: the
 * requisition's domain, test type (the one ordered, or DUAL) and order type, the first by rank: the same lookup
 * (domainPreferenceKey). The sample is ADDED to the job when such a preference exists and its workflow is the
 * sample's; it is IGNORED when the requisition gives no preference for it (NO_WORKFLOW: its kind or specimen type
 * is not offered for the requisition's tests) or one of another workflow (OTHER_WORKFLOW: it was added for other
 * tests, e.g. copied from a requisition of another test type, or the tests or the lab's preferences changed).
 * The sample's status does not enter: a CANCELLED sample says so itself.
 */
import type { SpecimenKind } from '../enums';

export const SAMPLE_WORKFLOW_MSG = {
  incompatible:
    'This sample is incompatible with the assigned workflow. Incompatible samples will not be added to the job.',
} as const;

/** A domain preference as the rule reads it: the sample part of its key, its rank and its workflow. */
export interface WorkflowPreference {
  tissueType: SpecimenKind;
  specimenType: string;
  /** lower first */
  rank: number;
  workflowAssignId: string | null;
}

export type SampleWorkflowState = 'ADDED' | 'IGNORED';
export type SampleWorkflowReason = 'NO_WORKFLOW' | 'OTHER_WORKFLOW';

/** A sample against the workflow its requisition assigns (the samples reply carries it on each sample). */
export interface SampleWorkflow {
  state: SampleWorkflowState;
  /** why it is IGNORED; null when ADDED */
  reason: SampleWorkflowReason | null;
  /** the workflow the requisition assigns to a sample of this kind and specimen type (null: none) */
  assigned: string | null;
}

/** The preference the requisition gives a sample of `type` and `specimenType`: the first by rank, or null. */
export function assignedPreference(
  prefs: readonly WorkflowPreference[],
  type: SpecimenKind,
  specimenType: string | null,
): WorkflowPreference | null {
  let best: WorkflowPreference | null = null;
  for (const p of prefs)
    if (p.tissueType === type && p.specimenType === specimenType && (!best || p.rank < best.rank)) best = p;
  return best;
}

/**
 * The rule (see the file's comment): `prefs` are the requisition's domain preferences, those of its domain, test
 * type and order type (domainPreferenceKey of the requisition), of every tissue and specimen type.
 */
export function sampleWorkflow(
  sample: { type: SpecimenKind; specimenType: string | null; workflowAssignId: string | null },
  prefs: readonly WorkflowPreference[],
): SampleWorkflow {
  const pref = assignedPreference(prefs, sample.type, sample.specimenType);
  if (!pref) return { state: 'IGNORED', reason: 'NO_WORKFLOW', assigned: null };
  const assigned = pref.workflowAssignId ?? null;
  if ((sample.workflowAssignId ?? null) !== assigned)
    return { state: 'IGNORED', reason: 'OTHER_WORKFLOW', assigned };
  return { state: 'ADDED', reason: null, assigned };
}
