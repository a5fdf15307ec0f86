import { HttpError } from 'react-admin';
import { fetchBlob } from '../../../providers/http';
import { API } from '@onco/domain';

/**
 * Print: the requisition's latest TRF PDF (GET /portal/api/v1/testOrderForms/{id}/trf) with the session's token.
 * A 404 is "no PDF yet" (null: the viewer says 'No PDF File Available.'); other failures carry the server's text.
 */
export async function loadTrfPdf(id: string): Promise<Blob | null> {
  const file = await fetchBlob(`${API.portal}/testOrderForms/${encodeURIComponent(id)}/trf`, {
    orNullOn404: true,
  });
  return file?.blob.size ? file.blob : null;
}

export const COMMENTS_PATH = `${API.cns}/comments`;
export const messagePath = (id: string) => `${API.cns}/messages/${encodeURIComponent(id)}`;

export function errorText(e: unknown, fallback: string): string {
  return e instanceof HttpError || e instanceof Error ? e.message || fallback : fallback;
}
