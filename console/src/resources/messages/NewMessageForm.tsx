import { useState } from 'react';
import { Box, Button, TextField, Typography } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { useMessagesT, useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { readSession } from '../../providers/session';
import { CNS, serverMessage } from './api';
import { messagesEn } from './i18n';
import type { ComposeContext } from './logic';
import { MessageTextField } from './MessageTextField';

/** The new-message form: the order, patient and location it was opened with, a subject and the message. */
export function NewMessageForm(props: {
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
      toast('error', serverMessage(e, t('messages.sendFailed')));
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
      <MessageTextField
        label={t('messages.message')}
        value={body}
        onChange={setBody}
        required
        minRows={4}
        testId="messages-body"
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
