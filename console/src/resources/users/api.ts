import type { AuthenticationProvider, UserAction, UserStatus } from '@onco/domain';
import { sessionHttpClient, type HttpClient } from '../../components/listApi';
import { API } from '@onco/domain';

/** A user as the users API returns it (services/identity/src/routes/users.ts publicUser). */
export interface UserRow {
  id: string;
  loginId: string;
  secondaryLoginId: string | null;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  status: UserStatus;
  authenticationProvider: AuthenticationProvider;
  sfdcId: string | null;
  role: { name: string; label: string };
  location: { id: string; name?: string | null } | null;
  account: { id: string; name?: string | null } | null;
  title: string | null;
  physicianId: string | null;
  authorizedUsers: string[];
  lastLogin: string | null;
  createdOn: string;
  updatedOn: string;
  version: number;
}

/** A physician choice for authorized users (GET /portal/api/v1/clinicians). */
export interface Clinician {
  id: string;
  firstName: string;
  lastName: string;
  physicianId: string | null;
  role: { name: string };
}

/** Directory employees searched for the add-directory-user dialog: 25 per page (spec 3 sections 5 and 9.1). */
export const DIRECTORY_PAGE_SIZE = 25;

/**
 * The Users screen's named data-provider methods (design rule 10). The app's data provider should offer them
 * (`...userMethods(httpClient)`); until it does, the screen calls these with the session's token.
 */
export function userMethods(http: HttpClient = sessionHttpClient(), base = API.portal) {
  return {
    /** PUT users/{id}/{action}: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword */
    async userAction({ id, action }: { id: string; action: UserAction }) {
      const { json } = await http(`${base}/users/${encodeURIComponent(id)}/${action}`, { method: 'PUT' });
      return { data: json as UserRow };
    },
    /**
     * Directory employees who are not portal users yet: ACTIVE_DIRECTORY users neither enabled nor locked
     * (status INACTIVE or PROVISIONED), matching q, 25 per page; reads content and totalElements.
     */
    async searchDirectoryUsers({ q }: { q: string }) {
      const filter = {
        authenticationProvider: 'ACTIVE_DIRECTORY',
        status: 'in(INACTIVE, PROVISIONED)',
        deleted: false,
        ...(q.trim() ? { q: q.trim() } : {}),
      };
      const qs = new URLSearchParams({
        filter: JSON.stringify(filter),
        page: '0',
        size: String(DIRECTORY_PAGE_SIZE),
        sort: 'lastName,ASC',
      });
      const { json } = await http(`${base}/users?${qs}`);
      return { data: (json?.content ?? []) as UserRow[], total: Number(json?.totalElements ?? 0) };
    },
    /** Clinician users (physician choices for authorized users), every page read. */
    async getClinicians() {
      const out: Clinician[] = [];
      for (let page = 0; page < 50; page++) {
        const qs = new URLSearchParams({ page: String(page), size: '500', sort: 'lastName,ASC' });
        const { json } = await http(`${base}/clinicians?${qs}`);
        out.push(...((json?.content ?? []) as Clinician[]));
        if (out.length >= Number(json?.totalElements ?? 0) || !(json?.content ?? []).length) break;
      }
      return { data: out };
    },
  };
}
export type UserMethods = ReturnType<typeof userMethods>;
