import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { useMessagesT, useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { CNS, type MessageRow } from './api';
import { messagesEn } from './i18n';
import { initialMessageStatus, messagesFilter, type MessageStatus } from './logic';

export const PER_PAGE = 15;

/** The thread list: All / New / Read, the search, the order and the page (a new status or search goes to page 1). */
export function useMessageList(navState: unknown) {
  const t = useMessagesT(messagesEn);
  const toast = useToast();
  const dp = useDataProvider<ConsoleDataProvider>();
  const [status, setStatus] = useState<MessageStatus>(() => initialMessageStatus(navState));
  const [q, setQ] = useState('');
  const [order, setOrder] = useState<'desc' | 'asc'>('desc');
  const [page, setPage] = useState(1);

  const filter = messagesFilter(status, q);
  const list = useQuery({
    queryKey: ['messages', filter, order, page],
    queryFn: () =>
      dp
        .call<{ content: MessageRow[]; totalElements: number }>({
          path: CNS,
          query: {
            filter,
            page: page - 1,
            perPage: PER_PAGE,
            sort: 'lastMessageCreatedOn',
            sortOrder: order,
          },
        })
        .then((r) => r.data),
  });
  useEffect(() => {
    if (list.error) toast('error', t('messages.loadFailed'));
  }, [list.error, toast, t]);

  const changeStatus = (v: MessageStatus) => {
    setStatus(v);
    setPage(1);
  };
  const search = (v: string) => {
    setQ(v);
    setPage(1);
  };
  return { status, changeStatus, q, search, order, setOrder, page, setPage, list };
}

export type MessageListState = ReturnType<typeof useMessageList>;
