import type { TestOrderRow, TestStatus } from '@onco/domain';
import { sessionHttpClient, type HttpClient } from '../../components/listApi';
import { fetchBlob } from '../../providers/http';
import { API } from '@onco/domain';

/** The orders area, where the lab serves test orders (spec 2 section 7 "Test orders"). */

/** A test order and its history entries as the orders area returns them: the wire contract in @onco/domain. */
export type { TestHistoryRow, TestOrderRow } from '@onco/domain';

/** The lab's test actions as named data-provider methods (design rule 10), spread into the app's provider. */
export function testMethods(http: HttpClient = sessionHttpClient()) {
  const post = async <T>(path: string, body: unknown): Promise<{ data: T }> => {
    const { json } = await http(`${API.oms}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return { data: json as T };
  };
  return {
    /** POST updateTestsStatus: body uuids (test ids), status */
    updateTestsStatus: (p: { uuids: string[]; status: TestStatus }) =>
      post<TestOrderRow[]>('/testOrders/updateTestsStatus', p),
    /** Update Due Date: a calendar day YYYY-MM-DD at most 30 days ahead, or null (none) */
    updateTestDueDate: (p: { uuid: string; dueOn: string | null }) =>
      post<TestOrderRow>('/testOrders/updateDueDate', p),
    /** POST updateLimsProjectId: body uuid, limsProjectId */
    updateLimsProjectId: (p: { uuid: string; limsProjectId: string }) =>
      post<TestOrderRow>('/testOrders/updateLimsProjectId', p),
    /** The report PDF of a test (latest version, or the one asked), null when there is none */
    loadTestReport: async (p: { id: string; version?: number }): Promise<Blob | null> => {
      const q = p.version ? `?version=${p.version}` : '';
      const file = await fetchBlob(`${API.oms}/testOrders/${encodeURIComponent(p.id)}/reports/download${q}`, {
        orNullOn404: true,
      });
      return file?.blob.size ? file.blob : null;
    },
  };
}
export type TestMethods = ReturnType<typeof testMethods>;
