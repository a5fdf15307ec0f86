/** How the Samples tab shows samples and which of its actions are enabled (spec 2 sections 5, 6 and 9). */
import type { SampleStatus, TestStatus } from '../enums';
import { SAMPLE_MSG, SAMPLE_NAME_MAX } from './sample-rules';
import { REPORTED_TEST_STATUSES } from './tests';

/** A sample name as tables show it: at most 25 characters, cut with "...". */
export function sampleDisplayName(name: string | null | undefined): string {
  const s = name ?? '';
  return s.length <= SAMPLE_NAME_MAX ? s : `${s.slice(0, SAMPLE_NAME_MAX - 3).trimEnd()}...`;
}

/** Which sample actions of the order summary's Samples tab are enabled (spec 2 section 6). */
export function sampleActions(ctx: {
  permissions: readonly string[];
  draft: boolean;
  deleted: boolean;
  testStatuses: readonly TestStatus[];
  /** a sample type is chosen in the filter */
  typeChosen: boolean;
  /** a row is selected */
  selected: boolean;
  /** the samples are loaded */
  loaded: boolean;
}) {
  const allowed = ctx.permissions.includes('VIEW_SAMPLE_ACTIONS') && !ctx.draft;
  return {
    visible: ctx.permissions.includes('VIEW_SAMPLE_ACTIONS'),
    add: allowed && ctx.typeChosen && !ctx.deleted && samplesMayBeAdded(ctx.testStatuses),
    edit: allowed && ctx.selected,
    copy: allowed && ctx.loaded,
  };
}

/** Add needs a test selection that is not fully reported or cancelled. */
export function samplesMayBeAdded(testStatuses: readonly TestStatus[]): boolean {
  return testStatuses.some((s) => s !== 'CANCELLED' && !REPORTED_TEST_STATUSES.includes(s));
}

/**
 * Copy samples (spec 2 section 5): PROCEED samples copied to a subsequent order need that order's parent,
 * else "Samples could not be copied". Returns the error or null.
 */
export function copySamplesError(args: {
  samples: readonly { status: SampleStatus | null }[];
  targetSubsequent: boolean;
  targetParentId: string | null | undefined;
}): string | null {
  if (args.samples.length === 0) return SAMPLE_MSG.copyNothing;
  const proceed = args.samples.some((s) => s.status === 'PROCEED');
  if (proceed && args.targetSubsequent && !args.targetParentId) return SAMPLE_MSG.copyFailed;
  return null;
}
