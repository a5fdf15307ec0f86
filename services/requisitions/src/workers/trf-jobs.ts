/**
 * A TRF PDF job's data and identity, and which events ask for one: what the requisitions' changes (submit, an Edit),
 * their consumer and the queue (trf-queue.ts) share, without the queue's rendering and storage.
 */

export type TrfFailStage = 'start' | 'rendered' | 'stored' | 'inserted';

export interface TrfJobData {
  requisitionId: string;
  /** the submission: its submittedOn in epoch milliseconds, as text */
  submissionKey: string;
  /** ISO time of the submission (printed on the form) */
  submittedOn: string;
  /** the event that asked for it (for operators) */
  eventId?: string | null;
  /**
   * A new version after an Edit of the submitted form (requisition-changed `form-edited`): when, and by whom. The
   * job's key is then the edit's time, so a later version supersedes it like a later submission.
   */
  editedOn?: string | null;
  editedBy?: { id: string; name: string } | null;
  /** test only (NODE_ENV=test): the first `failTimes` attempts throw at `failAt` (default 'start') */
  failTimes?: number;
  failAt?: TrfFailStage;
}

export const submissionKeyOf = (submittedOn: string | Date): string => {
  const ms = typeof submittedOn === 'string' ? Date.parse(submittedOn) : submittedOn.getTime();
  if (!Number.isFinite(ms)) throw new Error(`invalid submittedOn: ${String(submittedOn)}`);
  return String(ms);
};
/**
 * The TRF job a requisition-submitted event asks for (its `createPdf`), or null: what the consumer queues and what
 * the submit queues at once (docs/decisions.md "The TRF job, queued twice").
 */
export function trfJobOfSubmission(event: {
  id: string;
  data: { requisitionId: string; submittedOn: string; createPdf?: boolean | null };
}): TrfJobData | null {
  const d = event.data;
  if (!d.createPdf) return null;
  return {
    requisitionId: d.requisitionId,
    submissionKey: submissionKeyOf(d.submittedOn),
    submittedOn: d.submittedOn,
    eventId: event.id,
  };
}

/**
 * The TRF version a requisition-changed event asks for: an Edit that changed what the submitted form says
 * (`form-edited`), keyed by the edit's time and made by its editor; null otherwise.
 */
export function trfJobOfEdit(event: {
  id: string;
  data: {
    requisitionId: string;
    changes: readonly string[];
    deleted?: boolean | null;
    status?: string | null;
    changedOn: string;
    changedBy: { id: string; name: string };
  };
}): TrfJobData | null {
  const d = event.data;
  if (!d.changes.includes('form-edited') || d.deleted || d.status !== 'SUBMITTED') return null;
  return {
    requisitionId: d.requisitionId,
    submissionKey: submissionKeyOf(d.changedOn),
    submittedOn: d.changedOn,
    editedOn: d.changedOn,
    editedBy: d.changedBy,
    eventId: event.id,
  };
}

/** BullMQ job ids may not contain ':' */
export const trfJobId = (requisitionId: string, submissionKey: string) =>
  `trf-${requisitionId}-${submissionKey}`;
export const trfAttachmentId = trfJobId;
