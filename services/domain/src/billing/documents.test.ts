import { describe, expect, it } from 'vitest';
import { claimDocumentKey, DOCUMENT_MESSAGES, documentUploadOutcome } from './documents';

describe('the claim documents rule', () => {
  it('every document taken: DOC_UPLOAD_SUCCEEDED, no details', () => {
    expect(
      documentUploadOutcome(
        [
          { kind: 'REPORT', outcome: 'uploaded' },
          { kind: 'TRF', outcome: 'uploaded' },
        ],
        false,
      ),
    ).toEqual({ status: 'DOC_UPLOAD_SUCCEEDED', errorDetails: null });
  });

  it('some taken: DOC_UPLOAD_PARTIAL naming the others; none: DOC_UPLOAD_FAILED', () => {
    expect(
      documentUploadOutcome(
        [
          { kind: 'REPORT', outcome: 'uploaded' },
          { kind: 'TRF', outcome: 'refused', error: 'DOC-601: unreadable' },
        ],
        false,
      ),
    ).toEqual({ status: 'DOC_UPLOAD_PARTIAL', errorDetails: 'TRF: DOC-601: unreadable' });
    expect(
      documentUploadOutcome(
        [
          { kind: 'REPORT', outcome: 'refused', error: 'a' },
          { kind: 'TRF', outcome: 'refused', error: 'b' },
        ],
        false,
      ),
    ).toEqual({ status: 'DOC_UPLOAD_FAILED', errorDetails: 'REPORT: a\nTRF: b' });
    expect(documentUploadOutcome([], false)).toEqual({
      status: 'DOC_UPLOAD_FAILED',
      errorDetails: DOCUMENT_MESSAGES.noDocuments,
    });
  });

  it('waits while a retry is to come; on the last attempt a waiting document counts as not taken', () => {
    const results = [
      { kind: 'REPORT', outcome: 'uploaded' },
      { kind: 'TRF', outcome: 'retry', error: 'The billing system answered HTTP 503' },
    ] as const;
    expect(documentUploadOutcome(results, false)).toBeNull();
    expect(documentUploadOutcome(results, true)).toEqual({
      status: 'DOC_UPLOAD_PARTIAL',
      errorDetails: 'TRF: The billing system answered HTTP 503',
    });
  });

  it("a document's key: the claim, the kind and the file", () => {
    expect(claimDocumentKey('case-1:2', 'TRF', 'blob-9')).toBe('case-1:2:TRF:blob-9');
  });
});
