import { useEffect, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Divider,
  IconButton,
  MenuItem,
  Paper,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useDataProvider } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Banner,
  DataTable,
  DateText,
  Paginator,
  SearchBox,
  useMessagesT,
  useToast,
  type Column,
} from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { readSession } from '../../providers/session';
import { messagesEn } from './i18n';
import {
  composeFromState,
  emptyKey,
  initialMessageStatus,
  lengthText,
  MESSAGE_MAX,
  messagesFilter,
  type ComposeContext,
  type MessageStatus,
} from './logic';
import { API } from '@onco/domain';

const CNS = `${API.cns}/messages`;
const PER_PAGE = 15;

interface MessageRow {
  id: string;
  subject: string | null;
  messageBody: string | null;
  read: boolean;
  new: boolean;
  owner: { id: string | null; firstName: string | null; lastName: string | null } | null;
  testOrderForm: { id: string | null; testRequisitionId: string | null } | null;
  patient: { id: string | null; name: string | null } | null;
  createdOn: string;
  lastMessageCreatedOn: string | null;
}
interface Thread extends MessageRow {
  messageThreads: MessageRow[];
}

/**
 * Messages (/messages, spec 2 section 2.11): the thread list on the left (All/New/Read, search, sort; bold subject
 * when new), and on the right the Contact panel (the plus opens the new-message form, pre-filled when opened from an
 * order) and the selected thread with its replies. Opening an unread thread marks it read (PATCH); the server
 * decides who may read it.
 */
export function MessagesPage() {
  const t = useMessagesT(messagesEn);
  const toast = useToast();
  const location = useLocation();
  const dp = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<MessageStatus>(() => initialMessageStatus(location.state));
  const [q, setQ] = useState('');
  const [order, setOrder] = useState<'desc' | 'asc'>('desc');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const compose0 = useMemo(() => composeFromState(location.state), [location.state]);
  const [composing, setComposing] = useState<ComposeContext | null>(compose0);

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
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['messages'] });

  const open = async (row: MessageRow) => {
    setComposing(null);
    setSelected(row.id);
    if (!row.read) {
      await dp.call({ path: `${CNS}/${row.id}`, method: 'PATCH' }).catch(() => undefined);
      refresh();
    }
  };

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
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="messages-page">
      <Banner
        title={<span data-testid="page-title">{t('messages.title')}</span>}
        subtitle={t('messages.subtitle')}
      />
      <Box sx={{ display: 'flex', gap: 2, mt: 2, flexDirection: { xs: 'column', lg: 'row' } }}>
        <Paper variant="outlined" sx={{ flex: 3, minWidth: 0 }} data-testid="messages-list">
          <Box sx={{ display: 'flex', gap: 1, p: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={status}
              onChange={(_e, v) => {
                if (!v) return;
                setStatus(v);
                setPage(1);
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
              value={order}
              onChange={(e) => setOrder(e.target.value as 'desc' | 'asc')}
              sx={{ width: 150 }}
            >
              <MenuItem value="desc">{t('messages.newest')}</MenuItem>
              <MenuItem value="asc">{t('messages.oldest')}</MenuItem>
            </TextField>
            <Box sx={{ flex: 1 }} />
            <SearchBox
              value={q}
              onChange={(v) => {
                setQ(v);
                setPage(1);
              }}
              placeholder={t('messages.searchPlaceholder')}
            />
          </Box>
          <DataTable<MessageRow>
            columns={columns}
            rows={list.data?.content ?? []}
            loading={list.isPending}
            fetching={list.isFetching}
            emptyText={t(emptyKey(status, q))}
            onRowClick={(r) => void open(r)}
            selection="single"
            selectedIds={selected ? [selected] : []}
            onSelect={(ids) => {
              const row = list.data?.content.find((r) => r.id === ids[0]);
              if (row) void open(row);
            }}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
            <Paginator
              page={page}
              perPage={PER_PAGE}
              total={list.data?.totalElements ?? 0}
              onChange={setPage}
            />
          </Box>
        </Paper>
        <Paper variant="outlined" sx={{ flex: 2, minWidth: 300, display: 'flex', flexDirection: 'column' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.25 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
              {t('messages.contact')}
            </Typography>
            <Tooltip title={t('messages.newMessage')}>
              <IconButton
                color="primary"
                onClick={() => {
                  setSelected(null);
                  setComposing({});
                }}
                data-testid="messages-new"
              >
                <AddIcon />
              </IconButton>
            </Tooltip>
          </Box>
          <Divider />
          <Box sx={{ p: 2, flex: 1 }} data-testid="messages-thread-panel">
            {composing ? (
              <NewMessageForm
                context={composing}
                onCancel={() => setComposing(null)}
                onSent={(id) => {
                  setComposing(null);
                  setSelected(id);
                  refresh();
                }}
              />
            ) : selected ? (
              <ThreadView id={selected} onReplied={refresh} />
            ) : (
              <Typography color="text.secondary" data-testid="messages-select-one">
                {t('messages.selectOne')}
              </Typography>
            )}
          </Box>
          <Divider />
          <Box sx={{ p: 2, bgcolor: 'grey.50' }} data-testid="messages-contact-info">
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('messages.needHelp')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('messages.hours')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('messages.replyPromise')}
            </Typography>
          </Box>
        </Paper>
      </Box>
    </Box>
  );
}

function NewMessageForm(props: {
  context: ComposeContext;
  onCancel: () => void;
  onSent: (id: string) => void;
}) {
  const t = useMessagesT(messagesEn);
  const toast = useToast();
  const dp = useDataProvider<ConsoleDataProvider>();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const c = props.context;
  const send = async () => {
    setBusy(true);
    try {
      const { data } = await dp.call<{ id: string; message: string }>({
        path: CNS,
        method: 'POST',
        body: {
          subject,
          messageBody: body,
          type: 'CASE',
          isParent: true,
          owner: { id: readSession()?.id },
          testOrderForm: c.testOrderForm ?? null,
          patient: c.patient ?? null,
          hospitalLocation: c.hospitalLocation ?? null,
        },
      });
      toast('success', data.message || t('messages.sent'));
      props.onSent(data.id);
    } catch (e) {
      toast('error', (e as { body?: { message?: string } })?.body?.message || t('messages.sendFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="messages-form">
      <Typography variant="subtitle2">{t('messages.newMessage')}</Typography>
      {c.testOrderForm?.testRequisitionId ? (
        <TextField
          size="small"
          label={t('messages.trf')}
          value={c.testOrderForm.testRequisitionId}
          disabled
        />
      ) : null}
      {c.patient?.name ? (
        <TextField size="small" label={t('messages.patient')} value={c.patient.name} disabled />
      ) : null}
      {c.hospitalLocation?.name ? (
        <TextField size="small" label={t('messages.location')} value={c.hospitalLocation.name} disabled />
      ) : null}
      <TextField
        size="small"
        label={t('messages.subject')}
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        required
        slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'messages-subject' } }}
      />
      <TextField
        size="small"
        label={t('messages.message')}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        required
        multiline
        minRows={4}
        helperText={lengthText(body)}
        slotProps={{
          htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': 'messages-body' },
          formHelperText: { sx: { textAlign: 'right' } },
        }}
      />
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        <Button onClick={props.onCancel}>{t('messages.cancel')}</Button>
        <Button
          variant="contained"
          disabled={busy || !subject.trim() || !body.trim()}
          onClick={() => void send()}
          data-testid="messages-send"
        >
          {t('messages.send')}
        </Button>
      </Box>
    </Box>
  );
}

function ThreadView(props: { id: string; onReplied: () => void }) {
  const t = useMessagesT(messagesEn);
  const toast = useToast();
  const dp = useDataProvider<ConsoleDataProvider>();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const thread = useQuery({
    queryKey: ['messages', 'thread', props.id],
    queryFn: () => dp.call<Thread>({ path: `${CNS}/${props.id}` }).then((r) => r.data),
  });
  const reply = async () => {
    setBusy(true);
    try {
      await dp.call({
        path: CNS,
        method: 'POST',
        body: { type: 'CASE_COMMENT', isParent: false, parent: { id: props.id }, messageBody: text },
      });
      setText('');
      await thread.refetch();
      props.onReplied();
    } catch (e) {
      toast('error', (e as { body?: { message?: string } })?.body?.message || t('messages.replyFailed'));
    } finally {
      setBusy(false);
    }
  };
  const d = thread.data;
  if (!d) return <Typography color="text.secondary">…</Typography>;
  const who = (m: MessageRow) => `${m.owner?.firstName ?? ''} ${m.owner?.lastName ?? ''}`.trim();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="messages-thread">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {d.subject}
      </Typography>
      {d.testOrderForm?.testRequisitionId || d.patient?.name ? (
        <Typography variant="body2" color="text.secondary">
          {[d.testOrderForm?.testRequisitionId, d.patient?.name].filter(Boolean).join(' · ')}
        </Typography>
      ) : null}
      {[d, ...d.messageThreads].map((m) => (
        <Box
          key={m.id}
          sx={{ p: 1.25, borderRadius: 1, bgcolor: 'grey.50', border: 1, borderColor: 'divider' }}
        >
          <Typography variant="caption" color="text.secondary">
            {who(m)} · <DateText value={m.createdOn} withTime />
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {m.messageBody}
          </Typography>
        </Box>
      ))}
      <TextField
        size="small"
        multiline
        minRows={2}
        placeholder={t('messages.replyPlaceholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        helperText={lengthText(text)}
        slotProps={{
          htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': 'messages-reply' },
          formHelperText: { sx: { textAlign: 'right' } },
        }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          variant="contained"
          disabled={busy || !text.trim()}
          onClick={() => void reply()}
          data-testid="messages-reply-send"
        >
          {t('messages.reply')}
        </Button>
      </Box>
    </Box>
  );
}

export default MessagesPage;
