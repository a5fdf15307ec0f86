import type { TestStatus, TestType, OrderType } from '@onco/domain';
import { sessionHttpClient, type HttpClient } from '../../components/listApi';
import { fetchBlob } from '../../providers/http';
import { API } from '@onco/domain';

/** The orders area, where the lab serves test orders (spec 2 section 7 "Test orders"). */

/** A test history entry as GET /oms/api/v1/testOrders/{id} returns it. */
export interface TestHistoryRow {
  status: TestStatus;
  createdOn: string;
  updatedOn: string | null;
  change?: 'created' | 'status' | 'report' | 'due-date' | 'lims-project' | 'merged' | null;
  by?: { id: string | null; name: string | null } | null;
  detail?: string | null;
  testResult?: { id: string | null; contentType: string | null } | null;
}

/** A test order as the tests list and GET /testOrders/{id} return it (services/lab/src/models/test-order.ts). */
export interface TestOrderRow {
  id: string;
  testOrderId: string | null;
  testId: string | null;
  testType: TestType;
  orderType: OrderType;
  status: TestStatus;
  dueOn: string | null;
  testDuration: number | null;
  limsProjectId: string | null;
  createdOn: string;
  updatedOn: string;
  testHistories?: TestHistoryRow[];
  reports?: Array<{ version: number; fileName: string; amended: boolean; tnp: boolean; uploadedOn: string }>;
  testOrderForm: {
    id: string;
    testRequisitionId: string | null;
    account: { id: string | null; name: string | null } | null;
    physician: { id: string | null; name: string | null } | null;
    hospitalLocation: { id: string | null; name: string | null } | null;
    patient: { id: string | null; name: string | null; userId: string | null } | null;
    reviewStatus: string | null;
  };
}

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
