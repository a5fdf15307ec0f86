import { sessionHttpClient, type HttpClient } from '../../../components/listApi';
import { API } from '@onco/domain';

/** Merge TRF as a named data-provider method (design rule 10). */
export function mergeMethods(http: HttpClient = sessionHttpClient()) {
  return {
    /** POST /testOrderForms/merge?sourceTrfId&targetTrfId: the duplicate (source) into the primary (target) */
    mergeTestOrderForms: async (p: { sourceTrfId: string; targetTrfId: string }) => {
      const qs = new URLSearchParams({ sourceTrfId: p.sourceTrfId, targetTrfId: p.targetTrfId });
      const { json } = await http(`${API.portal}/testOrderForms/merge?${qs}`, { method: 'POST' });
      return { data: json as { id: string; testRequisitionId: string | null } };
    },
  };
}
export type MergeMethods = ReturnType<typeof mergeMethods>;
