import { API } from '@onco/domain';
import { useCustomMethods } from '../../components/useCustomMethods';
import { fetchBlob } from '../../providers/http';
import { saveBlob } from '../../providers/dataProvider';
import { exportQuery } from './logic';

export type { AuditEntryRow } from '@onco/domain';

/** The Audit screen's named calls (design rule 10): the CSV export of what the list shows. */
export function auditMethods() {
  return {
    /** GET /uam/api/v1/audit/export with the list's filter: the CSV, saved under the server's name */
    async exportAudit({ filter }: { filter: Record<string, unknown> }) {
      const { blob } = (await fetchBlob(`${API.uam}/audit/export?${exportQuery(filter)}`))!;
      const name = `audit_${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}.csv`;
      saveBlob(blob, name);
      return { data: { size: blob.size } };
    },
  };
}

const fallback = auditMethods();
export const useAuditMethods = () => useCustomMethods(fallback);
