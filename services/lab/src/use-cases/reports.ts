import { Transform } from 'node:stream';
import { reportStatus, reportUploadError } from '@onco/domain';
import {
  actorOf,
  badRequest,
  conflict,
  notFound,
  SYSTEM_ACTOR,
  type BlobStore,
  type SessionUser,
  type StoredBlob,
} from '@onco/platform';
import type { PendingReportDoc, ReportVersion, TestOrderDoc } from '../models';
import { inLabTransaction, labAuditTrail, pendingReportChange, removedReportEntry } from './audit';
import type { LabDeps } from './deps';
import { changeTestOrder, findTestOrder } from './test-orders';

/**
 * Test reports (spec 2 sections 2.5, 4, 5, 7 "Test orders"). Upload and submit are two steps, as the spec's
 * client makes them:
 *
 * 1. upload streams the PDF to the blob store and records it as a PENDING upload (owner, test, flags, expiry);
 *    the test order does not change. The answer is `filePath`, the pending record's opaque id.
 * 2. submit (or updateTestStatusWithReport for TNP) attaches that file to the test order as its next report
 *    version and sets the status from the flags, in ONE conditional write of the test order (changeTestOrder:
 *    state + history entry + `test-status` event with `change: 'report'`).
 *
 * "Submitted once" is guaranteed by the test order itself: the decision refuses a file already among its
 * report versions, so two submits of one filePath racing each other attach it once (the loser re-reads and is
 * refused). The pending record's `submittedOn` only gives the second caller a clear answer sooner; it is set in
 * the test order's transaction, each with its audit entry (docs/audit.md "Changes").
 */

/** 50MB (the upload limit of spec 1 section 9, applied to reports too), in bytes */
export const REPORT_MAX_BYTES = 50 * 1024 * 1024;
/** spec 2 sections 5 and 8 */
export const MSG_REPORT_FILE_TYPE = 'Invalid file type. Please select a valid file (.pdf).';
/** how long an uploaded report waits for its submit (decision: one day) */
export const PENDING_REPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** an expired upload is swept only after this grace, so a submit that started just before expiry finishes */
export const PENDING_REPORT_SWEEP_GRACE_MS = 10 * 60 * 1000;

export const REPORT_MESSAGES = {
  uploadNotFound: 'The uploaded report was not found. Upload the file again.',
  uploadExpired: 'The uploaded report has expired. Upload the file again.',
  alreadySubmitted: 'This uploaded report was already submitted.',
  noReport: 'No PDF File Available.',
  versionNotFound: (v: number) => `Report version ${v} was not found for this test.`,
} as const;

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/**
 * A pass-through that checks the first bytes of a stream are the PDF signature `%PDF-` (content, not the
 * name) and errors with the spec's 400 otherwise. It holds at most the first few bytes, never the file.
 */
export function pdfSignatureCheck(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (head === null) return cb(null, chunk);
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      if (head.length < PDF_MAGIC.length) return cb();
      if (!head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) return cb(badRequest(MSG_REPORT_FILE_TYPE));
      const out = head;
      head = null;
      cb(null, out);
    },
    flush(cb) {
      // an empty file, or one shorter than the signature
      cb(head === null ? null : badRequest(MSG_REPORT_FILE_TYPE));
    },
  });
}

/** The test order a report may be uploaded to now: in scope (else 404), not cancelled or not started (409). */
export async function uploadableTestOrder(
  deps: LabDeps,
  user: SessionUser,
  id: string,
): Promise<TestOrderDoc> {
  const doc = await findTestOrder(deps, user, id);
  const err = reportUploadError(doc.status);
  if (err) throw conflict(err);
  return doc;
}

/**
 * Record a stored upload as pending for its uploader and test (`uploadableTestOrder`'s), with its audit entry
 * (a report created, naming the test's patient and account) in the same transaction.
 */
export async function createPendingReport(
  deps: LabDeps,
  user: SessionUser,
  testOrder: Pick<TestOrderDoc, '_id' | 'testOrderForm'>,
  blob: StoredBlob,
  file: { fileName: string; amended: boolean; tnp: boolean },
  now: Date = new Date(),
): Promise<PendingReportDoc> {
  return labAuditTrail(deps.models).create<PendingReportDoc & Record<string, unknown>>(
    deps.models.PendingReport,
    {
      testOrderId: testOrder._id,
      blobId: blob.id,
      fileName: file.fileName,
      contentType: 'application/pdf',
      size: blob.size,
      sha256: blob.sha256,
      amended: file.amended,
      tnp: file.tnp,
      uploadedBy: actorOf(user),
      createdOn: now,
      expiresOn: new Date(+now + PENDING_REPORT_TTL_MS),
      submittedOn: null,
      version: null,
    },
    pendingReportChange(testOrder),
  );
}

/** A pending upload of this user for this test, or 404 (someone else's, another test's and unknown look alike). */
async function ownPendingReport(
  deps: LabDeps,
  user: SessionUser,
  filePath: string,
  testOrderId: string | null,
  now: Date,
): Promise<PendingReportDoc> {
  const p = await deps.models.PendingReport.findById(filePath).lean<PendingReportDoc>().exec();
  if (!p || p.uploadedBy.id !== user.id || (testOrderId !== null && p.testOrderId !== testOrderId))
    throw notFound(REPORT_MESSAGES.uploadNotFound);
  if (p.submittedOn) throw conflict(REPORT_MESSAGES.alreadySubmitted);
  if (p.expiresOn.getTime() <= now.getTime()) throw notFound(REPORT_MESSAGES.uploadExpired);
  return p;
}

/**
 * Submit an uploaded report: attach it to the test order as the next version and set the status from the
 * flags (given flags win over the ones sent with the upload), as one change of the test order; the pending
 * upload is marked submitted in the same transaction, each write with its entry (the test, the report).
 */
export async function submitReport(
  deps: LabDeps,
  user: SessionUser,
  testOrderId: string,
  filePath: string,
  flags: { amended?: boolean; tnp?: boolean } = {},
  now: () => Date = () => new Date(),
): Promise<{ testOrder: TestOrderDoc; report: ReportVersion }> {
  const pending = await ownPendingReport(deps, user, filePath, testOrderId, now());
  const amended = flags.amended ?? pending.amended;
  const tnp = flags.tnp ?? pending.tnp;
  let report: ReportVersion | null = null;
  const testOrder = await changeTestOrder(
    deps,
    user,
    testOrderId,
    (doc) => {
      const err = reportUploadError(doc.status);
      if (err) throw conflict(err);
      const reports = doc.reports ?? [];
      if (reports.some((r) => r.fileId === pending.blobId)) throw conflict(REPORT_MESSAGES.alreadySubmitted);
      report = {
        version: reports.reduce((max, r) => Math.max(max, r.version), 0) + 1,
        fileId: pending.blobId,
        fileName: pending.fileName,
        contentType: pending.contentType,
        size: pending.size,
        amended,
        tnp,
        uploadedOn: pending.createdOn,
        uploadedBy: { id: pending.uploadedBy.id, name: pending.uploadedBy.name },
      };
      return { change: 'report', status: reportStatus({ amended, tnp }), report, detail: pending.fileName };
    },
    now,
    // the pending upload marked submitted (a `report` update), in the test order's transaction; nothing when it
    // was marked already. Its filter is conditional on `submittedOn`, the one field of the record that changes:
    // the record as read stands for the state the update applies to
    (session, trail, written) =>
      trail.updateIn(
        session,
        deps.models.PendingReport,
        { _id: pending._id, submittedOn: null },
        { $set: { submittedOn: written.updatedOn, version: (report as ReportVersion | null)!.version } },
        pendingReportChange(written),
        { before: pending as PendingReportDoc & Record<string, unknown> },
      ),
  );
  const attached = report as ReportVersion | null;
  if (!attached) throw new Error('unreachable: a report change without a report');
  return { testOrder, report: attached };
}

/** The pending upload of this user (any test) with its blob, for a preview before submitting. */
export async function pendingReportFile(
  deps: LabDeps,
  user: SessionUser,
  filePath: string,
): Promise<PendingReportDoc> {
  return ownPendingReport(deps, user, filePath, null, new Date());
}

/** A report version of a test order in the user's scope: `version`, or the latest; 404 when there is none. */
export async function findReportVersion(
  deps: LabDeps,
  user: SessionUser,
  testOrderId: string,
  version?: number,
): Promise<ReportVersion & { testOrderForm: TestOrderDoc['testOrderForm'] }> {
  const doc = await findTestOrder(deps, user, testOrderId);
  const reports = doc.reports ?? [];
  if (!reports.length) throw notFound(REPORT_MESSAGES.noReport);
  const found =
    version === undefined
      ? reports.reduce((a, b) => (b.version > a.version ? b : a))
      : reports.find((r) => r.version === version);
  if (!found) throw notFound(REPORT_MESSAGES.versionNotFound(version!));
  // the test order's requisition (patient, account): the download's audit entry names them
  return { ...found, testOrderForm: doc.testOrderForm };
}

/**
 * Remove uploads that expired (plus a grace): their blob, unless the record says it was submitted or the test
 * order holds it (a submit that committed before the record's mark joined its transaction, and crashed before
 * the mark), then the record, with its audit entry (a `report` deleted, by `system`: also when the upload route
 * runs the sweep beside a request) in one transaction. An upload removed meanwhile (a sweep at once) records
 * nothing. Cheap (an indexed range that is usually empty); the upload route runs it after each upload.
 */
export async function sweepExpiredReportUploads(
  deps: LabDeps,
  blobs: BlobStore,
  now: Date = new Date(),
  limit = 50,
): Promise<number> {
  const rows = await deps.models.PendingReport.find({
    expiresOn: { $lt: new Date(+now - PENDING_REPORT_SWEEP_GRACE_MS) },
  })
    .sort({ expiresOn: 1 })
    .limit(limit)
    .lean<PendingReportDoc[]>()
    .exec();
  let removed = 0;
  for (const p of rows) {
    // the test order: whether it holds the file, and its patient and account (the entry's)
    const testOrder = await deps.models.TestOrder.findById(p.testOrderId, {
      testOrderForm: 1,
      'reports.fileId': 1,
    })
      .lean<Pick<TestOrderDoc, '_id' | 'testOrderForm' | 'reports'>>()
      .exec();
    const attached = !!p.submittedOn || !!testOrder?.reports?.some((r) => r.fileId === p.blobId);
    if (!attached) await blobs.remove(p.blobId);
    const gone = await inLabTransaction(deps.models, async (session, trail) => {
      const doc = await deps.models.PendingReport.findOneAndDelete(
        { _id: p._id, expiresOn: p.expiresOn },
        { session },
      )
        .lean<PendingReportDoc>()
        .exec();
      if (doc)
        await trail.recordIn(
          session,
          [removedReportEntry(testOrder ?? { _id: p.testOrderId }, doc)],
          SYSTEM_ACTOR,
        );
      return doc ? 1 : 0;
    });
    removed += gone;
  }
  return removed;
}
