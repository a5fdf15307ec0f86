import type { BillingCaseRow, BillingReviewStatus } from '@onco/domain';
import { sessionHttpClient, type HttpClient } from '../../components/listApi';
import { API } from '@onco/domain';

/** The billing area (spec 3 section 7.3). */

/** A case and its history entries as the billing area returns them: the wire contract in @onco/domain. */
export type { BillingCaseRow, CaseHistoryRow } from '@onco/domain';

export interface BillingSpecialist {
  id: string;
  name: string;
  email?: string | null;
}

/** The billing actions as named data-provider methods (design rule 10). */
export function billingMethods(http: HttpClient = sessionHttpClient()) {
  const send = async <T>(method: string, path: string, body?: unknown): Promise<{ data: T }> => {
    const { json } = await http(`${API.bis}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { data: json as T };
  };
  const e = encodeURIComponent;
  return {
    /** GET billingCases/{id}: one case with its history */
    getBillingCase: (p: { id: string }) => send<BillingCaseRow>('GET', `/billingCases/${e(p.id)}`),
    /** POST billing/{id}/billingCode/{code} */
    updateBillingCode: (p: { id: string; code: string }) =>
      send<BillingCaseRow>('POST', `/billing/${e(p.id)}/billingCode/${e(p.code)}`),
    /** POST billing/assign/{billingSpecialistId} with the case ids */
    assignBillingUser: (p: { specialistId: string; ids: string[] }) =>
      send<unknown>('POST', `/billing/assign/${e(p.specialistId)}`, p.ids),
    /** PUT billing/status/{status} with the case ids */
    updateBillingStatus: (p: { status: string; ids: string[]; reason?: string }) =>
      send<unknown>(
        'PUT',
        `/billing/status/${e(p.status)}`,
        p.reason ? { ids: p.ids, reason: p.reason } : p.ids,
      ),
    /** POST billing/{id}/timePoint/{timePoint} */
    updateTimePoint: (p: { id: string; timePoint: string }) =>
      send<BillingCaseRow>('POST', `/billing/${e(p.id)}/timePoint/${e(p.timePoint)}`),
    /** billing specialists whose name matches (2+ characters) */
    searchBillingSpecialists: async (p: { q: string }) => {
      const { data } = await send<{ content: BillingSpecialist[] }>(
        'GET',
        `/billingSpecialists?q=${e(p.q.trim())}`,
      );
      return { data: data.content ?? [] };
    },
    /** PUT /portal/api/v1/testOrderForms/{id}/billingReview: a submitted order's billing review status */
    setBillingReview: async (p: { requisitionId: string; status: BillingReviewStatus | null }) => {
      const { json } = await http(`${API.portal}/testOrderForms/${e(p.requisitionId)}/billingReview`, {
        method: 'PUT',
        body: JSON.stringify({ status: p.status }),
      });
      return { data: json as { id: string; billingReview?: { status: BillingReviewStatus | null } | null } };
    },
    /** PUT /portal/api/v1/testOrderForms/{id}/financialAssistance: the outcome of a financial assistance order */
    setFinancialAssistance: async (p: { requisitionId: string; outcome: string | null }) => {
      const { json } = await http(`${API.portal}/testOrderForms/${e(p.requisitionId)}/financialAssistance`, {
        method: 'PUT',
        body: JSON.stringify({ outcome: p.outcome }),
      });
      return { data: json as { id: string } };
    },
    /** POST billing/{id}/documents: Upload documents again (after a partial or failed document upload) */
    uploadDocumentsAgain: (p: { id: string }) =>
      send<BillingCaseRow>('POST', `/billing/${e(p.id)}/documents`),
    /** POST billing/submit/{id} (empty body): 'Submitted successfully' */
    submitBillingCase: (p: { id: string }) => send<{ message: string }>('POST', `/billing/submit/${e(p.id)}`),
    /** POST billing/submit with a list of ids: each case submitted on its own, a result per id */
    submitBillingCases: (p: { ids: string[] }) => send<BulkSubmitReply>('POST', '/billing/submit', p.ids),
  };
}
export interface BulkSubmitReply {
  message: string;
  submitted: number;
  results: {
    id: string;
    submitted: boolean;
    message: string;
    problems?: { field: string; message: string }[];
  }[];
}
export type BillingMethods = ReturnType<typeof billingMethods>;
