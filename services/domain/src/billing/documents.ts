import type { BillingCaseStatus } from '../enums';

/**
 * The claim's documents (docs/billing-gateway.md "The claim's documents"): once the billing system has taken a
 * claim, the platform uploads the documents that back it (the test's current report and the requisition's current
 * TRF) to the billing system, and the case records how that went: DOC_UPLOAD_SUCCEEDED, DOC_UPLOAD_PARTIAL or
 * DOC_UPLOAD_FAILED (spec 3 section 4.3's value set). This is the one rule of when documents are uploaded, what
 * each upload's answer means and which status a round of uploads ends in.
 */

/** The kinds of document a claim is backed by, in the order they are sent. */
export const CLAIM_DOCUMENT_KINDS = ['REPORT', 'TRF'] as const;
export type ClaimDocumentKind = (typeof CLAIM_DOCUMENT_KINDS)[number];

/** The billing system took the claim: its documents are uploaded (a round starts by itself). */
export const DOC_UPLOAD_START_STATUSES: readonly BillingCaseStatus[] = [
  'ACCEPTED_BY_XIFIN',
  'FIXED_IN_XIFIN',
];

/** Some or none of the documents went: billing staff may ask for another round ("Upload documents again"). */
export const DOC_UPLOAD_AGAIN_STATUSES: readonly BillingCaseStatus[] = [
  'DOC_UPLOAD_PARTIAL',
  'DOC_UPLOAD_FAILED',
];

/** The statuses a round of uploads may run in (and so may record its outcome from). */
export const DOC_UPLOAD_RUN_STATUSES: readonly BillingCaseStatus[] = [
  ...DOC_UPLOAD_START_STATUSES,
  ...DOC_UPLOAD_AGAIN_STATUSES,
];

/**
 * One document's upload key at the billing system, its Idempotency-Key: the claim's key, the kind and the stored
 * file's id. The same file of the same claim is never taken twice, whatever the rounds and retries; a new version
 * of the report or the TRF is a new file, so a new key.
 */
export const claimDocumentKey = (claimKey: string, kind: ClaimDocumentKind, fileId: string) =>
  `${claimKey}:${kind}:${fileId}`;

/** What became of one document in a round. `retry`: not taken yet, for a reason that may pass (the system away). */
export type DocumentUploadResult =
  | { kind: ClaimDocumentKind; outcome: 'uploaded' }
  | { kind: ClaimDocumentKind; outcome: 'refused'; error: string }
  | { kind: ClaimDocumentKind; outcome: 'retry'; error: string };

export const DOCUMENT_MESSAGES = {
  noDocuments: 'No report or TRF PDF was found to upload for this claim',
  missing: (kind: ClaimDocumentKind) =>
    kind === 'REPORT' ? 'the test has no report PDF' : 'the requisition has no TRF PDF',
  againNotAllowed: 'Documents can be uploaded again only after a partial or failed document upload',
} as const;

/**
 * The status a round ends in, and the case's errorDetails: every document taken, SUCCEEDED; some, PARTIAL (the
 * details list the others); none, FAILED. `final`: the round has no retry left, so a document still waiting
 * counts as not taken. Null while documents wait for a retry that is still to come.
 */
export function documentUploadOutcome(
  results: readonly DocumentUploadResult[],
  final: boolean,
): { status: BillingCaseStatus; errorDetails: string | null } | null {
  if (!final && results.some((r) => r.outcome === 'retry')) return null;
  const taken = results.filter((r) => r.outcome === 'uploaded').length;
  const problems = results.flatMap((r) => (r.outcome === 'uploaded' ? [] : [`${r.kind}: ${r.error}`]));
  if (results.length === 0)
    return { status: 'DOC_UPLOAD_FAILED', errorDetails: DOCUMENT_MESSAGES.noDocuments };
  if (taken === results.length) return { status: 'DOC_UPLOAD_SUCCEEDED', errorDetails: null };
  return {
    status: taken > 0 ? 'DOC_UPLOAD_PARTIAL' : 'DOC_UPLOAD_FAILED',
    errorDetails: problems.join('\n'),
  };
}
