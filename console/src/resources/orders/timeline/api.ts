import { sessionHttpClient, type HttpClient } from '../../../components/listApi';
import { API } from '@onco/domain';

/** One entry of GET /portal/api/v1/testOrderForms/{id}/timeline (services/requisitions/src/projections/timeline.ts). */
export interface TimelineEntry {
  id: string;
  at: string;
  family:
    | 'requisition-submitted'
    | 'requisition-changed'
    | 'test-status'
    | 'sample'
    | 'billing-case'
    | 'attachment';
  kind: string;
  testOrderId: string | null;
  sampleId: string | null;
  by: { id: string | null; name: string | null } | null;
  data: Record<string, any>;
}

/** The order timeline as a named data-provider method (design rule 10). */
export function timelineMethods(http: HttpClient = sessionHttpClient()) {
  return {
    getOrderTimeline: async ({ id }: { id: string }): Promise<{ data: TimelineEntry[] }> => {
      const { json } = await http(`${API.portal}/testOrderForms/${encodeURIComponent(id)}/timeline`);
      return { data: (json?.content ?? []) as TimelineEntry[] };
    },
  };
}
export type TimelineMethods = ReturnType<typeof timelineMethods>;
