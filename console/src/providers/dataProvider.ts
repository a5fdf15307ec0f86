import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'react-admin';
import { listMethods, type ListMethods } from '../components/listApi';
import { authHeaders, fetchBlob, request, uploadForm } from './http';
import { b64 } from './session';
import { API } from '@onco/domain';

/** ra-data-simple-rest's HTTP client: the session's bearer token on every call, the server's error body kept. */
const httpClient = (url: string, options: fetchUtils.Options = {}) => {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  for (const [k, v] of Object.entries(authHeaders())) headers.set(k, v);
  return fetchUtils.fetchJson(url, { ...options, headers });
};

/** A maintenance window (spec 3 section 3), times in epoch milliseconds. */
export interface MaintenanceWindow {
  id: string;
  startTime: number;
  endTime: number;
  from_time: number;
  displayTime: number;
  title: string;
  description: string | null;
  body: string | null;
}

export interface ReleaseNote {
  id: string;
  majorRevision: number;
  minorRevision: number;
  patchRevision: number;
  name: string;
  updatedOn?: string | null;
  featureNoteVOs: Array<{
    title: string;
    featureNoteItemVOs: Array<{ title: string; subFeatureNoteItemVOs: Array<{ title: string }> }>;
  }>;
}

const qs = (params: Record<string, unknown>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** Save a Blob under a file name (the browser's download). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The product's calls beyond create/read/update/delete (design rule 10): each a named method. The list building
 * blocks' methods (getFacets, getPreference, savePreference: components/listApi.ts) are spread in with this client.
 * A screen's own named methods live in its folder and are reached through its typed hook (useCustomMethods), so
 * this lower layer imports no screen.
 */
export interface ConsoleDataProvider extends DataProvider, ListMethods {
  /** a named action on one record: PUT|POST {resource}/{id}/{action} */
  action<T = any>(
    resource: string,
    params: { id: string | number; action: string; method?: 'PUT' | 'POST'; body?: unknown },
  ): Promise<{ data: T }>;
  /** any JSON call under the portal area (or an absolute /area/api path) */
  call<T = any>(params: {
    path: string;
    method?: string;
    body?: unknown;
    query?: Record<string, unknown>;
  }): Promise<{ data: T }>;
  /** multipart upload with progress as an integer percent (XHR) */
  upload<T = any>(params: {
    path: string;
    form: FormData;
    onProgress?: (percent: number) => void;
  }): Promise<{ data: T }>;
  /** download a file and save it under its name */
  download(params: { path: string; fileName: string }): Promise<{ data: Blob }>;
  getMaintenance(): Promise<{ data: MaintenanceWindow[] }>;
  /** schedule a window (CAN_MANAGE_MAINTENANCE); times in epoch milliseconds */
  scheduleMaintenance(params: {
    startTime: number;
    endTime: number;
    displayTime?: number | null;
    title: string;
    description?: string | null;
  }): Promise<{ data: MaintenanceWindow }>;
  /** cancel a window (CAN_MANAGE_MAINTENANCE) */
  cancelMaintenance(params: { id: string }): Promise<{ data: MaintenanceWindow }>;
  getReleaseNotes(): Promise<{ data: ReleaseNote[] }>;
  changePassword(params: {
    userId: string;
    oldPassword: string;
    newPassword: string;
  }): Promise<{ data: { message: string } }>;
  forgotPassword(params: { email: string }): Promise<{ data: { message: string } }>;
  resetPassword(params: { token: string; newPassword: string }): Promise<{ data: { message: string } }>;
}

const path = (p: string) =>
  p.startsWith('/') && /^\/(uam|portal|oms|bis|cns|dxs)\//.test(p)
    ? p
    : `${API.portal}/${p.replace(/^\//, '')}`;

/**
 * Resources served outside the portal area: the lab's test orders are in the orders area (/oms/api/v1, spec 2
 * section 7), billing cases in /bis, the audit trail in /uam. Every other resource is under /portal/api/v1.
 */
export const RESOURCE_AREAS: Record<string, string> = {
  testOrders: API.oms,
  billingCases: API.bis,
  // the audit trail is read in the users area (docs/audit.md)
  audit: API.uam,
};

const portalRest = simpleRestProvider(API.portal, httpClient);
const areaRest = Object.fromEntries(
  [...new Set(Object.values(RESOURCE_AREAS))].map((area) => [area, simpleRestProvider(area, httpClient)]),
);
const restFor = (resource: string) =>
  RESOURCE_AREAS[resource] ? areaRest[RESOURCE_AREAS[resource]] : portalRest;
const base: DataProvider = {
  getList: (r, p) => restFor(r).getList(r, p),
  getOne: (r, p) => restFor(r).getOne(r, p),
  getMany: (r, p) => restFor(r).getMany(r, p),
  getManyReference: (r, p) => restFor(r).getManyReference(r, p),
  update: (r, p) => restFor(r).update(r, p),
  updateMany: (r, p) => restFor(r).updateMany(r, p),
  create: (r, p) => restFor(r).create(r, p),
  delete: (r, p) => restFor(r).delete(r, p),
  deleteMany: (r, p) => restFor(r).deleteMany(r, p),
};
const portalLists = listMethods(httpClient);
const areaLists = Object.fromEntries(
  Object.values(RESOURCE_AREAS).map((area) => [area, listMethods(httpClient, area)]),
);

export const dataProvider: ConsoleDataProvider = {
  ...base,
  ...portalLists,
  getFacets: (resource, params) =>
    (RESOURCE_AREAS[resource] ? areaLists[RESOURCE_AREAS[resource]] : portalLists).getFacets(
      resource,
      params,
    ),
  async action(resource, { id, action, method = 'PUT', body }) {
    const data = await request<any>(`${API.portal}/${resource}/${encodeURIComponent(String(id))}/${action}`, {
      method,
      body,
    });
    return { data };
  },
  async call({ path: p, method = 'GET', body, query }) {
    const data = await request<any>(path(p) + (query ? qs(query) : ''), { method, body });
    return { data };
  },
  upload({ path: p, form, onProgress }) {
    return uploadForm<any>(path(p), form, { onProgress });
  },
  async download({ path: p, fileName }) {
    const { blob } = (await fetchBlob(path(p)))!;
    saveBlob(blob, fileName);
    return { data: blob };
  },
  async getMaintenance() {
    return { data: await request<MaintenanceWindow[]>(`${API.portal}/maintenance`, { skipLogout: true }) };
  },
  async scheduleMaintenance(body) {
    return { data: await request<MaintenanceWindow>(`${API.portal}/maintenance`, { method: 'POST', body }) };
  },
  async cancelMaintenance({ id }) {
    return {
      data: await request<MaintenanceWindow>(`${API.portal}/maintenance/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
    };
  },
  async getReleaseNotes() {
    const res = await request<{ content: ReleaseNote[] }>(`${API.portal}/releaseNotes${qs({ perPage: 50 })}`);
    return { data: res.content };
  },
  async changePassword({ userId, oldPassword, newPassword }) {
    const data = await request<{ message: string }>(
      `${API.uam}/users/${encodeURIComponent(userId)}/credentials`,
      {
        method: 'PUT',
        body: { oldPassword: b64(oldPassword), newPassword: b64(newPassword) },
      },
    );
    return { data };
  },
  async forgotPassword({ email }) {
    const data = await request<{ message: string }>(
      `${API.uam}/password/reset/${encodeURIComponent(email.trim())}`,
      { method: 'POST', skipLogout: true },
    );
    return { data };
  },
  async resetPassword({ token, newPassword }) {
    const data = await request<{ message: string }>(`${API.uam}/password/reset`, {
      method: 'POST',
      body: { token, newPassword: b64(newPassword) },
      skipLogout: true,
    });
    return { data };
  },
};
