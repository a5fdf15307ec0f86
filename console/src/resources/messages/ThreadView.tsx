import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { DateText, useMessagesT, useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { CNS, serverMessage, type MessageRow, type Thread } from './api';
import { messagesEn } from './i18n';
import { MessageTextField } from './MessageTextField';

/** A thread: its subject, order and patient, the message and its replies, and the reply box. */
export function ThreadView(props: { id: string; onReplied: () => void }) {
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
      toast('error', serverMessage(e, t('messages.replyFailed')));
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
      <MessageTextField
        placeholder={t('messages.replyPlaceholder')}
        value={text}
        onChange={setText}
        minRows={2}
        testId="messages-reply"
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
