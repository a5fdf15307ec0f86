import type { ManifestError } from '@onco/domain';
import { useCustomMethods } from '../../components/useCustomMethods';
import { fetchBlob, request, uploadForm } from '../../providers/http';
import { saveBlob } from '../../providers/dataProvider';
import { fileNameOf, pickBoxAccount, type BoxAccount } from './logic';
import { API } from '@onco/domain';

/** The portal area, where attachments and sample manifests are served (spec 3 section 7.2). */

/** An attachment as GET /portal/api/v1/attachments lists it (services/requisitions routes/attachments.ts). */
export interface AttachmentRow {
  id: string;
  name: string;
  type: string;
  status: string;
  errorDetails: string | null;
  attachedBy: { id: string | null; name: string | null } | null;
  account: { id: string | null; name: string | null } | null;
  createdOn: string;
  processedOn: string | null;
}

/** POST sampleManifests/check: the dry run's answer (docs/manifests.md "API"); nothing is written. */
export interface ManifestCheck {
  rows: number;
  create: number;
  update: number;
  refused: number;
  /** every error found (`errors` holds the first 1,000) */
  errorCount?: number;
  errors: ManifestError[];
  samples: {
    row: number;
    action: 'create' | 'update';
    testOrderFormId: string;
    testRequisitionId: string | null;
    name: string;
    type: string;
  }[];
}

/** GET sampleManifests/{attachmentId}: a manifest's processing result with the reconciliation. */
export interface ManifestSummary {
  attachmentId: string;
  name?: string;
  status: 'UPLOADED' | 'PROCESSED' | 'ERROR';
  rows: number;
  created: number;
  updated: number;
  errorCount?: number;
  errors: ManifestError[];
  missing: {
    testOrderFormId: string;
    testRequisitionId: string | null;
    expected: string[];
    found: string[];
  }[];
  processedOn: string | null;
  /** while UPLOADED: where the manifest's job is (services/lab manifests/result-routes.ts `manifestProgress`) */
  progress?: ManifestProgress | null;
}

/** A manifest job's state and progress, as GET sampleManifests/{id} answers it while the manifest is UPLOADED. */
export interface ManifestProgress {
  state: 'QUEUED' | 'PROCESSING' | 'RETRYING';
  phase: 'READING' | 'PARSING' | 'CHECKING' | 'APPLYING' | null;
  done: number;
  total: number;
}

export interface UploadAttachmentParams {
  file: File | Blob;
  fileName?: string;
  type: string;
  account: BoxAccount;
  /** upload progress, an integer percent 0..100 (100 once the server has answered) */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

const e = encodeURIComponent;

/** GET a file and save it under the server's name (Content-Disposition), else `fallbackName`. */
async function downloadFile(url: string, fallbackName: string) {
  const { blob, disposition } = (await fetchBlob(url))!;
  const fileName = fileNameOf(disposition, fallbackName);
  saveBlob(blob, fileName);
  return { data: { fileName, size: blob.size } };
}

/**
 * The Attachment Box's calls as named data-provider methods (design rule 10): the app's data provider may spread
 * `boxMethods()` into itself; until it does, `useBoxMethods()` calls these with the session's token.
 */
export function boxMethods() {
  return {
    /**
     * The account Box uploads go to (spec 3 section 7.2): GET accounts filtered by the configured name, the
     * first result; without a name, or when that account is not the user's, the user's first account by name.
     */
    async getBoxAccount({ name }: { name?: string | null }) {
      const list = async (filter: Record<string, unknown>) => {
        const q = new URLSearchParams({
          filter: JSON.stringify(filter),
          page: '0',
          perPage: '1',
          sort: 'name,ASC',
        });
        const res = await request<{ content?: BoxAccount[] } | BoxAccount[]>(`${API.portal}/accounts?${q}`);
        return Array.isArray(res) ? res : (res?.content ?? []);
      };
      const configured = name?.trim() ? await list({ name: name.trim() }) : [];
      const first = configured.length ? [] : await list({});
      return { data: pickBoxAccount(configured, first) };
    },
    /**
     * POST attachments/upload: multipart type, account and the file last (the server streams it), with the
     * upload's progress as an integer percent. The server refuses other extensions with MSG_BOX_FILE_TYPE.
     */
    uploadAttachment({ file, fileName, type, account, onProgress, signal }: UploadAttachmentParams) {
      const form = new FormData();
      form.append('type', type);
      form.append('accountId', account.id);
      if (account.name) form.append('accountName', account.name);
      form.append('file', file, fileName ?? (file instanceof File ? file.name : 'upload'));
      return uploadForm<AttachmentRow>(`${API.portal}/attachments/upload`, form, { onProgress, signal });
    },
    /** GET attachments/{id}/download, saved under the attachment's name */
    downloadAttachment: ({ id, name }: { id: string; name: string }) =>
      downloadFile(`${API.portal}/attachments/${e(id)}/download`, name),
    /** PUT attachments/{id} {deleted: true}: the soft delete (only while UPLOADED) */
    async deleteAttachment({ id }: { id: string }) {
      const data = await request<AttachmentRow>(`${API.portal}/attachments/${e(id)}`, {
        method: 'PUT',
        body: { deleted: true },
      });
      return { data };
    },
    /** GET sampleManifests/template?format=: the sample manifest template */
    downloadManifestTemplate: ({ format }: { format: 'csv' | 'xlsx' }) =>
      downloadFile(
        `${API.portal}/sampleManifests/template?format=${format}`,
        `sample-manifest-template.${format}`,
      ),
    /** POST sampleManifests/check (multipart `file`): the dry run; reads and checks, applies nothing */
    checkManifest({
      file,
      fileName,
      signal,
    }: {
      file: File | Blob;
      fileName?: string;
      signal?: AbortSignal;
    }) {
      const form = new FormData();
      form.append('file', file, fileName ?? (file instanceof File ? file.name : 'manifest.csv'));
      return uploadForm<ManifestCheck>(`${API.portal}/sampleManifests/check`, form, { signal });
    },
    /** GET sampleManifests/{attachmentId}: counts, row errors and the missing samples (reconciliation) */
    async getSampleManifest({ id }: { id: string }) {
      return { data: await request<ManifestSummary>(`${API.portal}/sampleManifests/${e(id)}`) };
    },
    /** GET sampleManifests/{attachmentId}/errors: the original rows with an added Error column */
    downloadManifestErrors: ({ id, name }: { id: string; name: string }) =>
      downloadFile(`${API.portal}/sampleManifests/${e(id)}/errors`, name),
  };
}
export type BoxMethods = ReturnType<typeof boxMethods>;

const fallback = boxMethods();

/** The Box's methods: the app data provider's when it spreads boxMethods in, else the session client's. */
export const useBoxMethods = () => useCustomMethods(fallback);
