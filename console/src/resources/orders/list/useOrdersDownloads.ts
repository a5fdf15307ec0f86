import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useToast, type ListContext } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import type { RequisitionRow } from './logic';
import { useOrdersT } from './useOrdersT';

/** yyyyMMdd_HHmmss (spec 2 section 9's export timestamp), local time. */
function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

const qs = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`)
    .join('&');

/** The orders list's downloads: the blank TRF and the CSV of the list as filtered and sorted; which one runs. */
export function useOrdersDownloads() {
  const t = useOrdersT();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const toast = useToast();
  const [downloading, setDownloading] = useState<'blank' | 'csv' | null>(null);

  const downloadBlank = async () => {
    setDownloading('blank');
    try {
      await dataProvider.download({ path: 'testOrderForms/downloadBlankForm', fileName: 'TRF Document.pdf' });
    } catch (e) {
      toast('error', (e as Error).message || t('orders.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  const downloadCsv = async (ctx: ListContext<RequisitionRow>) => {
    setDownloading('csv');
    try {
      const query = qs({
        filter: ctx.filter,
        sort: ctx.state.sort.field,
        sortOrder: ctx.state.sort.order.toLowerCase(),
      });
      await dataProvider.download({
        path: `testOrderForms/export?${query}`,
        fileName: `orders_${stamp()}.csv`,
      });
    } catch (e) {
      toast('error', (e as Error).message || t('orders.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  return { downloading, downloadBlank, downloadCsv };
}
