import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { dashboardQuery, defaultRange, fromInputDate, toInputDate, type DateRange } from './logic';

export interface RecentTest {
  id: string;
  testOrderId?: string | null;
  testType?: string | null;
  updatedOn?: string | null;
  testOrderForm?: {
    id?: string | null;
    testRequisitionId?: string | null;
    patient?: { name?: string | null } | null;
    account?: { name?: string | null } | null;
  } | null;
}

export interface RecentPage {
  content: RecentTest[];
  totalElements: number;
  page: number;
  perPage: number;
}

export interface Dashboard {
  range: DateRange;
  testStatus?: Record<string, number>;
  clinicalReview?: Record<string, number>;
  billingReview?: Record<string, number>;
  billingAttention?: number;
  unreadMessages?: number;
  recentlyCompleted?: RecentPage;
}

/** A place a counter opens, with the navigation state that says what it counted. */
export type Target = { to: string; state: Record<string, unknown> } | null;
export type GoTo = (target: Target, menu?: 'orders' | 'home') => void;

/** GET dashboard for the range and the Recently Completed page; the previous answer stays while the next loads. */
export function useDashboard(range: DateRange, page: number) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['dashboard', range, page],
    queryFn: () =>
      dataProvider
        .call<Dashboard>({ path: 'dashboard', query: dashboardQuery(range, page) })
        .then((r) => r.data),
    placeholderData: (prev: Dashboard | undefined) => prev,
  });
}

/** How many draft requisitions there are (TRF Review), when the user may see the orders page. */
export function useDraftCount(enabled: boolean) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['dashboard', 'drafts'],
    enabled,
    queryFn: () =>
      dataProvider
        .getList('testOrderForms', {
          pagination: { page: 1, perPage: 1 },
          sort: { field: 'updatedOn', order: 'DESC' },
          filter: { status: ['DRAFT'] },
        })
        .then((r) => r.total ?? 0),
  });
}

/**
 * The dashboard's date range and the Recently Completed page: the two date inputs as typed, the range they make
 * (applied when both are dates; a start after the end is refused with `rangeError`), and Reset.
 */
export function useDateRange() {
  const [range, setRange] = useState<DateRange>(() => defaultRange());
  const [page, setPage] = useState(0);
  const [startText, setStartText] = useState(() => toInputDate(range.start));
  const [endText, setEndText] = useState(() => toInputDate(range.end));
  const [rangeError, setRangeError] = useState(false);

  const applyRange = (startValue: string, endValue: string) => {
    const start = fromInputDate(startValue, 'start');
    const end = fromInputDate(endValue, 'end');
    if (start === null || end === null) return;
    if (start > end) {
      setRangeError(true);
      return;
    }
    setRangeError(false);
    setPage(0);
    setRange({ start, end });
  };
  const changeStart = (value: string) => {
    setStartText(value);
    applyRange(value, endText);
  };
  const changeEnd = (value: string) => {
    setEndText(value);
    applyRange(startText, value);
  };
  const reset = () => {
    const r = defaultRange();
    setStartText(toInputDate(r.start));
    setEndText(toInputDate(r.end));
    setRangeError(false);
    setPage(0);
    setRange(r);
  };
  return { range, page, setPage, startText, endText, rangeError, changeStart, changeEnd, reset };
}

export type DateRangeState = ReturnType<typeof useDateRange>;
