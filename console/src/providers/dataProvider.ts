import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils } from 'react-admin';
import { readSession } from './authProvider';

/** ra-data-simple-rest against the portal area, with the session's bearer token on every call. */
const httpClient = (url: string, options: fetchUtils.Options = {}) => {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const s = readSession();
  if (s) headers.set('Authorization', `Bearer ${s.token}`);
  return fetchUtils.fetchJson(url, { ...options, headers });
};

export const dataProvider = simpleRestProvider('/portal/api/v1', httpClient);
