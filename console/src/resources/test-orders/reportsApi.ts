import { useCustomMethods } from '../../components/useCustomMethods';
import { request, uploadForm } from '../../providers/http';
import { API } from '@onco/domain';

/** The orders area, where the lab serves test reports (spec 2 section 7 "Test orders"). */

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

const testPath = (id: string) => `${API.oms}/testOrders/${encodeURIComponent(id)}`;

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
      const form = new FormData();
      form.append('isAmendedReport', String(amended));
      form.append('isTnpReportComplete', String(tnp));
      // the flags first, the file last (the server reads the parts in order, streaming the file)
      form.append('file', file, fileName ?? (file instanceof File ? file.name : 'report.pdf'));
      return uploadForm<UploadedReport>(`${testPath(id)}/reports/upload`, form, { onProgress, signal });
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
          `${API.oms}/testOrders/updateTestStatusWithReport`,
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
