import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import type { Requisition } from './requisition';

/** GET testOrderForms/{id}, polled for a while after submit until the TRF PDF (Print) is ready. */
export function useSummaryQuery(id: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['testOrderForms', 'summary', id],
    queryFn: () => dataProvider.getOne<Requisition>('testOrderForms', { id }).then((r) => r.data),
    enabled: Boolean(id),
    // the TRF PDF is made by a worker after submit: look again for a while so Print appears when it is ready
    refetchInterval: (q) => {
      const d = q.state.data;
      const recent = d?.updatedOn ? Date.now() - new Date(d.updatedOn).getTime() < 3 * 60_000 : false;
      return d && d.status === 'SUBMITTED' && !d.deleted && !d.actions?.print && recent ? 4000 : false;
    },
  });
}
