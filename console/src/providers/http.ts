import { HttpError } from 'react-admin';
import { MSG } from '@onco/domain';
import { readSession } from './session';

/** The JSON error body every API error carries (services/platform errors.ts). */
export interface ApiErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** a 401 on this call does not end the session (the authenticate call) */
  skipLogout?: boolean;
  signal?: AbortSignal;
}

export function authHeaders(): Record<string, string> {
  const s = readSession();
  return s ? { Authorization: `Bearer ${s.token}` } : {};
}

/** An HttpError carrying the server's error body (passed through to the caller, spec 3 section 7). */
export function toHttpError(status: number, body: unknown): HttpError {
  const b = (body ?? {}) as Partial<ApiErrorBody>;
  const message = typeof b.message === 'string' && b.message ? b.message : MSG.generic;
  return new HttpError(message, status, body);
}

/**
 * One JSON call with the session's bearer token. Non-2xx answers throw an HttpError with the server's body
 * (react-admin's checkError then ends the session on a 401; `skipLogout` marks the error so it does not).
 */
export async function request<T = unknown>(url: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(), ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method: opts.method ?? 'GET', headers, body, signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new HttpError(MSG.generic, 0, null);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (!res.ok) {
    const err = toHttpError(res.status, json);
    if (opts.skipLogout) (err as HttpError & { skipLogout?: boolean }).skipLogout = true;
    throw err;
  }
  return json as T;
}

/**
 * GET a file with the session's token (TRF PDFs, exports, attachments, manifests' files): its bytes and the
 * Content-Disposition header. A failure carries the server's text like `request`; a network failure is the generic
 * message. `orNullOn404`: a 404 is null (nothing there yet), not an error. `method` and a JSON `body` for a file
 * that a POST answers (barcode labels).
 */
export async function fetchBlob(
  url: string,
  opts: { orNullOn404?: boolean; method?: string; body?: unknown } = {},
): Promise<{ blob: Blob; disposition: string | null } | null> {
  let res: Response;
  const json: Record<string, string> = opts.body === undefined ? {} : { 'Content-Type': 'application/json' };
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET',
      headers: { ...authHeaders(), ...json },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    throw new HttpError(MSG.generic, 0, null);
  }
  if (res.status === 404 && opts.orNullOn404) return null;
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw toHttpError(res.status, body);
  }
  return { blob: await res.blob(), disposition: res.headers.get('Content-Disposition') };
}

/**
 * Multipart POST with XMLHttpRequest (fetch has no upload progress): `onProgress` gets an integer percent, at most
 * 99 until the server has answered (it still stores and records the file), then 100. Errors carry the server's
 * body like `request`; an abort through `signal` rejects with an AbortError.
 */
export function uploadForm<T>(
  url: string,
  form: FormData,
  opts: { onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
) {
  return new Promise<{ data: T }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Accept', 'application/json');
    let last = -1;
    const progress = (p: number) => {
      const percent = Math.max(0, Math.min(100, Math.floor(p)));
      if (percent !== last) {
        last = percent;
        opts.onProgress?.(percent);
      }
    };
    xhr.upload.onprogress = (ev) => {
      // 99 at most until the server has answered (it still stores and records the file)
      if (ev.lengthComputable && ev.total > 0) progress(Math.min(99, (ev.loaded / ev.total) * 100));
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
        resolve({ data: body as T });
      } else reject(toHttpError(xhr.status, body));
    };
    xhr.onerror = () => reject(new HttpError(MSG.uploadFailed, 0, null));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (opts.signal) {
      if (opts.signal.aborted) return xhr.abort();
      opts.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    progress(0);
    xhr.send(form);
  });
}
