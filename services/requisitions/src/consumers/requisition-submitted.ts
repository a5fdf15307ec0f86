import { defineEventConsumer } from '../projections/event-consumer';
import { trfJobOfEdit, trfJobOfSubmission, type TrfQueue } from '../workers/trf-queue';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const TRF_CONSUMER_GROUP = 'requisitions.trf-pdf';

const requisitionSubmitted = defineEventConsumer({
  group: TRF_CONSUMER_GROUP,
  family: 'requisition-submitted',
  apply: async (trf: TrfQueue, event) => {
    const job = trfJobOfSubmission(event);
    if (!job) return 'ignored';
    await trf.add(job);
    return 'enqueued';
  },
  log: {
    message: 'TRF PDF job enqueued',
    fields: (event) => ({ eventId: event.id, requisitionId: event.subject }),
  },
});

/** The consumer group of the TRF versions made by Edits of submitted forms. */
export const TRF_EDITS_CONSUMER_GROUP = 'requisitions.trf-pdf-edits';

/**
 * An Edit that changed what a submitted form says (requisition-changed `form-edited`, schemaVersion 6) gets a new
 * TRF PDF version, keyed by the edit's time: a redelivered event adds nothing (the job id), and an older edit's
 * job that runs after a newer one's finds itself stale. The version is the editor's (who and when).
 */
const requisitionEdited = defineEventConsumer({
  group: TRF_EDITS_CONSUMER_GROUP,
  family: 'requisition-changed',
  apply: async (trf: TrfQueue, event) => {
    const job = trfJobOfEdit(event);
    if (!job) return 'ignored';
    await trf.add(job);
    return 'enqueued';
  },
  log: {
    message: 'TRF PDF version job enqueued',
    fields: (event) => ({ eventId: event.id, requisitionId: event.subject }),
  },
});

export const handleRequisitionEdited = requisitionEdited.apply;
export const startRequisitionEditedConsumer = requisitionEdited.start;

/**
 * What one `requisition-submitted` event asks of this service: the TRF PDF job of that submission when the
 * event's `createPdf` is true (the submit route sets it from the query's createPdf and the submitter's
 * CAN_CREATE_TRF_PDF). Idempotent: the job id is deterministic per submission, so a redelivered event (or
 * the same event handled twice after a crash) adds nothing new; the job itself never creates a second TRF.
 */
export const handleRequisitionSubmitted = requisitionSubmitted.apply;

/** Start the consumer (only in processes that run workers; see the module's startConsumers). */
export const startRequisitionSubmittedConsumer = requisitionSubmitted.start;
