/** Pure rules of the Attachment Box screen (spec 3 sections 2.8 and 4.2). */

export interface BoxRange {
  start: number | null;
  end: number | null;
}

/** The Created range as the list's filter (`between(start, end)` on createdOn, epoch milliseconds). */
export function boxBaseFilter(range: BoxRange): Record<string, unknown> {
  return range.start !== null || range.end !== null
    ? { createdOn: `between(${range.start ?? 0},${range.end ?? 8_640_000_000_000_000})` }
    : {};
}

/** Delete only while UPLOADED (spec 3 section 4.2); the red Error link only for ERROR. */
export const canDelete = (status: string | null | undefined) => status === 'UPLOADED';
export const hasErrors = (status: string | null | undefined) => status === 'ERROR';

/** Which empty text: nothing at all vs nothing for the filters (decision, docs/decisions.md "Attachment Box"). */
export const boxEmptyKey = (filtered: boolean) => (filtered ? 'box.emptyFiltered' : 'box.emptyAll');

/** While a row is still UPLOADED (a manifest being processed), the list refreshes itself. */
export const needsPolling = (rows: readonly { status?: string | null; type?: string | null }[]) =>
  rows.some((r) => r.status === 'UPLOADED' && r.type === 'SAMPLE_MANIFEST');
