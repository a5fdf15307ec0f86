import { Box, MenuItem, Paper, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { DataTable, DateText, Paginator, SearchBox, useMessagesT, type Column } from '../../components';
import type { MessageRow } from './api';
import { messagesEn } from './i18n';
import { emptyKey } from './logic';
import { PER_PAGE, type MessageListState } from './useMessageList';

/** The thread list with its status, order and search; bold subject when new; a click opens the thread. */
export function MessageListPanel(props: {
  l: MessageListState;
  selected: string | null;
  onOpen: (row: MessageRow) => void;
}) {
  const { l, selected, onOpen } = props;
  const { list } = l;
  const t = useMessagesT(messagesEn);

  const columns: Column<MessageRow>[] = [
    { source: 'trf', label: t('messages.col.trf'), render: (r) => r.testOrderForm?.testRequisitionId ?? '' },
    {
      source: 'subject',
      label: t('messages.col.subject'),
      render: (r) => (
        <Box component="span" sx={{ fontWeight: r.read ? 400 : 700 }} data-new={r.read ? undefined : 'true'}>
          {r.subject ?? ''}
        </Box>
      ),
    },
    { source: 'patient', label: t('messages.col.patient'), render: (r) => r.patient?.name ?? '' },
    {
      source: 'createdOn',
      label: t('messages.col.created'),
      render: (r) => <DateText value={r.createdOn} />,
    },
    {
      source: 'lastMessageCreatedOn',
      label: t('messages.col.received'),
      render: (r) => <DateText value={r.lastMessageCreatedOn} withTime />,
    },
  ];

  return (
    <Paper variant="outlined" sx={{ flex: 3, minWidth: 0 }} data-testid="messages-list">
      <Box sx={{ display: 'flex', gap: 1, p: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={l.status}
          onChange={(_e, v) => {
            if (!v) return;
            l.changeStatus(v);
          }}
        >
          {(['ALL', 'NEW', 'READ'] as const).map((s) => (
            <ToggleButton key={s} value={s} data-testid={`messages-status-${s}`}>
              {t(`messages.${s.toLowerCase()}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          value={l.order}
          onChange={(e) => l.setOrder(e.target.value as 'desc' | 'asc')}
          sx={{ width: 150 }}
        >
          <MenuItem value="desc">{t('messages.newest')}</MenuItem>
          <MenuItem value="asc">{t('messages.oldest')}</MenuItem>
        </TextField>
        <Box sx={{ flex: 1 }} />
        <SearchBox value={l.q} onChange={l.search} placeholder={t('messages.searchPlaceholder')} />
      </Box>
      <DataTable<MessageRow>
        columns={columns}
        rows={list.data?.content ?? []}
        loading={list.isPending}
        fetching={list.isFetching}
        emptyText={t(emptyKey(l.status, l.q))}
        onRowClick={onOpen}
        selection="single"
        selectedIds={selected ? [selected] : []}
        onSelect={(ids) => {
          const row = list.data?.content.find((r) => r.id === ids[0]);
          if (row) onOpen(row);
        }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <Paginator
          page={l.page}
          perPage={PER_PAGE}
          total={list.data?.totalElements ?? 0}
          onChange={l.setPage}
        />
      </Box>
    </Paper>
  );
}
