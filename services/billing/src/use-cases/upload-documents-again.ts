import { DOC_UPLOAD_AGAIN_STATUSES, DOCUMENT_MESSAGES } from '@onco/domain';
import type { SessionUser } from '@onco/platform';
import { changeUserCase, orRefuse } from './cases';
import type { BillingDeps } from './deps';

/** Why a case's documents may not be uploaded again, or null. */
export const uploadAgainError = (caseStatus: string) =>
  (DOC_UPLOAD_AGAIN_STATUSES as readonly string[]).includes(caseStatus)
    ? null
    : DOCUMENT_MESSAGES.againNotAllowed;

/**
 * Upload documents again (ours, docs/billing-gateway.md "The claim's documents"): after a partial or failed
 * round, the next round of the case's current claim. The documents already taken stay taken (not sent again);
 * the status stays until the round ends. A history entry says who asked. The caller queues the round's job.
 */
export const uploadDocumentsAgain = (deps: BillingDeps, user: SessionUser, id: string) =>
  changeUserCase(deps, user, id, (doc) => {
    const generation = doc.submission?.generation ?? 0;
    const current = doc.documents?.generation === generation ? doc.documents : null;
    return orRefuse(uploadAgainError(doc.caseStatus), {
      set: {
        documents: { generation, round: (current?.round ?? 0) + 1, uploads: current?.uploads ?? [] },
      },
      history: true,
      reason: 'Documents to be uploaded again',
    });
  });
