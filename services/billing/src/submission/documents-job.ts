import type { Job } from 'bullmq';
import {
  CLAIM_DOCUMENT_KINDS,
  claimDocumentKey,
  DOC_UPLOAD_RUN_STATUSES,
  DOCUMENT_MESSAGES,
  documentUploadOutcome,
  type BillingCaseStatus,
  type ClaimDocumentKind,
  type DocumentUploadResult,
} from '@onco/domain';
import type { PlatformContext } from '@onco/platform';
import { changeCase, SYSTEM_ACTOR } from '../use-cases';
import type { BillingCaseDoc, BillingModels, ClaimDocumentUpload } from '../models';
import { claimKey } from './claim';
import type { GatewayClient, GatewayReply } from './gateway-client';
import { errorText, unreachable } from './send';
import type { UncastWrites } from './writes';

/**
 * The `billing-documents` queue (docs/billing-gateway.md "The claim's documents"): once the billing system took a
 * claim (ACCEPTED_BY_XIFIN, FIXED_IN_XIFIN), one job per round uploads the documents behind it, the test's current
 * report and the requisition's current TRF, and records the outcome: DOC_UPLOAD_SUCCEEDED, _PARTIAL or _FAILED.
 *
 * - Job id `billing-docs-<caseId>-<generation>-<round>`: a duplicate add is a no-op. Round 0 starts by itself;
 *   each "Upload documents again" (after a partial or failed round) is the next round.
 * - Each document carries `Idempotency-Key: <claimKey>:<kind>:<fileId>`, the same idempotency as claims: a re-run
 *   job, a retry or a later round never makes the billing system take one file twice, and a document taken is
 *   kept on the case (`documents.uploads`) and not sent again.
 * - A 2xx takes the document; another 4xx refuses it for good; a timeout, a network error, a 5xx, 408 or 429 is
 *   transient: the documents taken so far are recorded and the job throws, so BullMQ retries it after the backoff
 *   (BILLING_SUBMIT_ATTEMPTS, BILLING_SUBMIT_BACKOFF_MS). After the last attempt a document still waiting counts
 *   as not taken.
 * - The outcome is one conditional write of the case (status, errorDetails naming what was not taken, the uploads,
 *   a history entry and the billing-case event), only while the case is still this generation's and round's in a
 *   status a round runs in; anything else (a resubmission, billing staff closing the case) leaves the case alone.
 */
export const BILLING_DOCUMENTS_QUEUE = 'billing-documents';

export interface DocumentsJobData {
  caseId: string;
  generation: number;
  round: number;
}

export interface DocumentsJobResult {
  outcome: 'recorded' | 'skipped';
  status?: BillingCaseStatus;
  reason?: 'missing' | 'stale';
}

/** BullMQ job ids may not contain ':' */
export const documentsJobId = (d: DocumentsJobData) => `billing-docs-${d.caseId}-${d.generation}-${d.round}`;

/** One file behind a claim: its kind, the stored file (ctx.blobs) and its name. */
export interface ClaimDocumentFile {
  kind: ClaimDocumentKind;
  fileId: string;
  fileName: string;
}

/**
 * Where a claim's files are found (wired by the server from the lab's reports and the requisitions' TRFs: the
 * billing module keeps no files).
 */
export interface ClaimDocumentSource {
  /** the test's current report and the requisition's current TRF; a kind without a file is left out */
  filesOf(c: Pick<BillingCaseDoc, 'testOrderId' | 'testOrderFormId'>): Promise<ClaimDocumentFile[]>;
}

export interface DocumentsJobDeps extends UncastWrites {
  ctx: PlatformContext;
  models: BillingModels;
  gateway: GatewayClient;
  source: ClaimDocumentSource;
  timeoutMs: number;
  attempts: number;
}

/** A transient failure: the job throws it so that BullMQ retries after the backoff. */
export class DocumentsRetry extends Error {}

/** The round a case is in for its current generation (0 before any). */
export const roundOf = (d: Pick<BillingCaseDoc, 'documents' | 'submission'>) =>
  d.documents && d.documents.generation === d.submission?.generation ? d.documents.round : 0;

/** The documents a case's current generation had taken (none for another generation's). */
const uploadsOf = (d: BillingCaseDoc, generation: number) =>
  d.documents?.generation === generation ? d.documents.uploads : [];

/** The billing system's refusal as the case shows it: its errors, else its HTTP status. */
function problem(reply: GatewayReply): string {
  let errors: unknown;
  try {
    errors = (JSON.parse(reply.text) as { errors?: unknown }).errors;
  } catch {
    // not JSON: the HTTP status says it
  }
  return errorText(errors) ?? `The billing system answered HTTP ${reply.status}`;
}

/** Send one file; classify the answer. Never throws. */
async function sendDocument(
  deps: DocumentsJobDeps,
  claim: string,
  key: string,
  file: ClaimDocumentFile,
): Promise<DocumentUploadResult & { documentId?: string | null }> {
  const { kind } = file;
  let body: Buffer;
  try {
    body = Buffer.concat(await (await deps.ctx.blobs.get(file.fileId)).toArray());
  } catch {
    return { kind, outcome: 'refused', error: `the file ${file.fileName} is not available` };
  }
  let reply: GatewayReply;
  try {
    reply = await deps.gateway.post(`/claims/${encodeURIComponent(claim)}/documents`, body, {
      'content-type': 'application/pdf',
      'idempotency-key': key,
      'x-document-kind': kind,
      'x-file-name': encodeURIComponent(file.fileName),
    });
  } catch (err) {
    return { kind, outcome: 'retry', error: unreachable(err, deps.timeoutMs) };
  }
  if (reply.status >= 200 && reply.status < 300) {
    let documentId: string | null = null;
    try {
      documentId = String((JSON.parse(reply.text) as { documentId?: unknown }).documentId ?? '') || null;
    } catch {
      // taken, without an id the platform can read
    }
    return { kind, outcome: 'uploaded', documentId };
  }
  if (reply.status >= 500 || reply.status === 408 || reply.status === 429)
    return { kind, outcome: 'retry', error: problem(reply) };
  return { kind, outcome: 'refused', error: problem(reply) };
}

/** The billing-documents job's processor (see above). */
export async function execDocumentsJob(
  deps: DocumentsJobDeps,
  job: Pick<Job<DocumentsJobData>, 'data' | 'attemptsMade' | 'opts'>,
): Promise<DocumentsJobResult> {
  const { ctx, models } = deps;
  const { caseId, generation, round } = job.data;
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? deps.attempts);
  const log = ctx.logger.child({ queue: BILLING_DOCUMENTS_QUEUE, caseId, generation, round });
  const ours = (d: BillingCaseDoc | null): d is BillingCaseDoc =>
    !!d &&
    !d.deleted &&
    d.submission?.generation === generation &&
    roundOf(d) === round &&
    DOC_UPLOAD_RUN_STATUSES.includes(d.caseStatus);
  const read = () => models.BillingCase.findById(caseId, { outbox: 0 }).lean<BillingCaseDoc>().exec();

  const current = await read();
  const found = current?.caseStatus ?? null;
  if (!ours(current)) {
    log.info({ status: found }, 'claim documents skipped');
    return { outcome: 'skipped', reason: found ? 'stale' : 'missing' };
  }

  // every kind in order: taken before (kept on the case), sent now, or missing
  const claim = claimKey(caseId, generation);
  const taken = new Set(uploadsOf(current, generation).map((u) => u.key));
  const files = await deps.source.filesOf(current);
  const results: DocumentUploadResult[] = [];
  const uploaded: ClaimDocumentUpload[] = [];
  for (const kind of CLAIM_DOCUMENT_KINDS) {
    const file = files.find((f) => f.kind === kind);
    if (!file) {
      results.push({ kind, outcome: 'refused', error: DOCUMENT_MESSAGES.missing(kind) });
      continue;
    }
    const key = claimDocumentKey(claim, kind, file.fileId);
    if (taken.has(key)) {
      results.push({ kind, outcome: 'uploaded' });
      continue;
    }
    const { documentId, ...result } = await sendDocument(deps, claim, key, file);
    results.push(result);
    if (result.outcome === 'uploaded')
      uploaded.push({
        kind,
        fileId: file.fileId,
        fileName: file.fileName,
        key,
        documentId: documentId ?? null,
        uploadedOn: new Date(),
      });
  }

  const outcome = documentUploadOutcome(results, lastAttempt);
  let stale = false;
  const after = await changeCase(
    { models },
    async () => (await read()) as BillingCaseDoc,
    (d) => {
      if (!ours(d)) {
        stale = true;
        return { noop: true };
      }
      if (!outcome && uploaded.length === 0) return { noop: true };
      const before = uploadsOf(d, generation);
      const uploads = [...before, ...uploaded.filter((u) => !before.some((b) => b.key === u.key))];
      return {
        set: {
          documents: { generation, round, uploads },
          ...(outcome ? { caseStatus: outcome.status, errorDetails: outcome.errorDetails } : {}),
        },
        history: !!outcome,
      };
    },
    SYSTEM_ACTOR,
    { write: deps.writeUncast },
  );
  if (stale) {
    log.info({ status: after?.caseStatus ?? null }, 'claim documents not recorded: the case moved on');
    return { outcome: 'skipped', reason: 'stale' };
  }
  ctx.nudgeOutbox();
  if (!outcome) {
    const waiting = results.flatMap((r) => (r.outcome === 'retry' ? [`${r.kind}: ${r.error}`] : []));
    log.info({ waiting }, 'claim documents will be sent again');
    throw new DocumentsRetry(waiting.join('; '));
  }
  log.info({ status: outcome.status }, 'claim documents recorded');
  return { outcome: 'recorded', status: outcome.status };
}
