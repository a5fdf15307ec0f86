import { fetchUtils } from 'react-admin';
import type { Facet } from './listState';
import { API } from '@onco/domain';

/**
 * Named data-provider methods the building blocks need beyond getList/getOne/create/update. The app's data
 * provider should spread `listMethods(httpClient)` into itself; until it does, the blocks call them through
 * `sessionHttpClient` (the same bearer token, read from the session in local storage).
 */
export type HttpClient = (
  url: string,
  options?: fetchUtils.Options,
) => Promise<{ status: number; headers: Headers; body: string; json: any }>;

const SESSION_KEY = 'oncotrf.session';

export function sessionHttpClient(): HttpClient {
  return (url, options = {}) => {
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    try {
      const token = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null')?.token;
      if (token) headers.set('Authorization', `Bearer ${token}`);
    } catch {
      /* no session: the server answers 401 */
    }
    return fetchUtils.fetchJson(url, { ...options, headers });
  };
}

export interface PreferenceRecord {
  id: string;
  name: string;
  /** JSON text */
  content: string;
  version: number;
}

export function listMethods(http: HttpClient = sessionHttpClient(), base: string = API.portal) {
  return {
    /** GET {base}/{resource}/facets?filter=… → the named facets (value, count, optional label) */
    async getFacets(resource: string, params: { filter?: Record<string, unknown> } = {}) {
      const qs = new URLSearchParams({ filter: JSON.stringify(params.filter ?? {}), facets: 'true' });
      const { json } = await http(`${base}/${resource}/facets?${qs}`);
      return { data: (json?.content ?? []) as Facet[] };
    },
    /** The signed-in user's preference record by name (content parsed from its JSON text), or null. */
    async getPreference({ name }: { name: string }) {
      const qs = new URLSearchParams({ filter: JSON.stringify({ name }), page: '0', size: '1' });
      const { json } = await http(`${base}/userPreferences?${qs}`);
      const p = (json?.content ?? [])[0] as PreferenceRecord | undefined;
      if (!p) return { data: null };
      let content: unknown = null;
      try {
        content = JSON.parse(p.content);
      } catch {
        content = null;
      }
      return { data: { content, version: p.version } as { content: unknown; version: number } | null };
    },
    /** Save (create or replace) the signed-in user's preference record; content is stored as JSON text. */
    async savePreference({ name, content }: { name: string; content: unknown; version?: number }) {
      const { json } = await http(`${base}/userPreferences`, {
        method: 'PUT',
        body: JSON.stringify({ name, content: JSON.stringify(content) }),
        keepalive: true, // sent as the page is left, too (useListPreference flushes on pagehide)
      });
      return { data: json as PreferenceRecord };
    },
  };
}
export type ListMethods = ReturnType<typeof listMethods>;
