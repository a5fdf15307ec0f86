import { HttpError } from 'react-admin';
import { MSG } from '@onco/domain';
import { useCustomMethods } from '../../components/useCustomMethods';
import { authHeaders, request, toHttpError } from '../../providers/http';

/** The orders area, where the lab serves test reports (spec 2 section 7 "Test orders"). */
const OMS_API = '/oms/api/v1';

/** What the upload answers: an opaque reference to the uploaded, not yet submitted file. */
export interface UploadedReport {
  filePath: string;
}

export interface UploadReportParams {
  /** the test order's id */
  id: string;
  file: File | Blob;
  fileName?: string;
  amended: boolean;
  tnp: boolean;
  /** upload progress, an integer percent 0..100 */
  onProgress?: (percent: number) => void;
  /** aborts the upload (the server keeps nothing of an interrupted upload) */
  signal?: AbortSignal;
}

const testPath = (id: string) => `${OMS_API}/testOrders/${encodeURIComponent(id)}`;

/**
 * The Upload Report dialog's named data-provider methods (design rule 10): the app's data provider may spread
 * `reportMethods()` into itself; until it does, `useReportMethods()` calls these with the session's token.
 */
export function reportMethods() {
  return {
    /**
     * POST testOrders/{id}/reports/upload: multipart `file`, isAmendedReport, isTnpReportComplete, sent with
     * XMLHttpRequest for its upload progress (an integer percent). Answers the `filePath` to submit.
     */
    uploadReport({ id, file, fileName, amended, tnp, onProgress, signal }: UploadReportParams) {
      return new Promise<{ data: UploadedReport }>((resolve, reject) => {
        const form = new FormData();
        form.append('isAmendedReport', String(amended));
        form.append('isTnpReportComplete', String(tnp));
        // the flags first, the file last (the server reads the parts in order, streaming the file)
        form.append('file', file, fileName ?? (file instanceof File ? file.name : 'report.pdf'));
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${testPath(id)}/reports/upload`);
        for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
        xhr.setRequestHeader('Accept', 'application/json');
        let last = -1;
        const progress = (p: number) => {
          const percent = Math.max(0, Math.min(100, Math.floor(p)));
          if (percent !== last) {
            last = percent;
            onProgress?.(percent);
          }
        };
        xhr.upload.onprogress = (e) => {
          // 99 at most until the server has answered (it still writes and records the file)
          if (e.lengthComputable && e.total > 0) progress(Math.min(99, (e.loaded / e.total) * 100));
        };
        xhr.onload = () => {
          let body: unknown = null;
          try {
            body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
          } catch {
            body = xhr.responseText;
          }
          if (xhr.status >= 200 && xhr.status < 300) {
            progress(100);
            resolve({ data: body as UploadedReport });
          } else reject(toHttpError(xhr.status, body));
        };
        xhr.onerror = () => reject(new HttpError(MSG.uploadFailed, 0, null));
        xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
        if (signal) {
          if (signal.aborted) return xhr.abort();
          signal.addEventListener('abort', () => xhr.abort(), { once: true });
        }
        progress(0);
        xhr.send(form);
      });
    },
    /**
     * Attach an uploaded file as the test's next report version and set its status: the TNP path
     * (POST updateTestStatusWithReport, status TNP_REPORT_COMPLETE) for a TNP report that is not an amendment,
     * else POST testOrders/{id}/reports/submit?amendedFlag&tnpReportCompleteFlag&filePath.
     */
    async submitReport({
      id,
      filePath,
      amended,
      tnp,
    }: {
      id: string;
      filePath: string;
      amended: boolean;
      tnp: boolean;
    }) {
      if (tnp && !amended) {
        const data = await request<{ id: string; status: string }>(
          `${OMS_API}/testOrders/updateTestStatusWithReport`,
          {
            method: 'POST',
            body: { uuid: id, status: 'TNP_REPORT_COMPLETE', filePath },
          },
        );
        return { data };
      }
      const q = new URLSearchParams({
        amendedFlag: String(amended),
        tnpReportCompleteFlag: String(tnp),
        filePath,
      });
      const data = await request<{ id: string; status: string }>(`${testPath(id)}/reports/submit?${q}`, {
        method: 'POST',
      });
      return { data };
    },
  };
}
export type ReportMethods = ReturnType<typeof reportMethods>;

const fallback = reportMethods();

/** The report methods, from the app's data provider when it has them. */
export const useReportMethods = () => useCustomMethods(fallback);

/** Whether a chosen file is acceptable for a report: a .pdf (spec 2 section 5; the server checks the content). */
export const isPdfFileName = (name: string) => /\.pdf$/i.test(name.trim());
