import { useEffect, useState } from 'react';
import { Autocomplete, Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { API, PATIENT_PICK_DEBOUNCE_MS, PATIENT_PICK_MIN_CHARS } from '@onco/domain';
import { useDebounced, useMessagesT, useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { readSession } from '../../providers/session';
import { CNS, serverMessage } from './api';
import { messagesEn } from './i18n';
import type { ComposeContext } from './logic';
import { MessageTextField } from './MessageTextField';

interface PatientPick {
  id: string;
  name: string | null;
  userId: string | null;
  dateOfBirth: string | null;
}
interface OrderPick {
  id: string;
  testRequisitionId: string | null;
}

/**
 * The patient search and the TRF field of a message not opened from an order (spec 2 section 5 "Contact form"):
 * at least 2 characters, asked 400 ms after the last key, the user's patients only (the server's scope, which it
 * checks again when the message is sent); the TRF field lists the chosen patient's submitted orders.
 */
function AboutPicker(props: {
  patient: PatientPick | null;
  onPatient: (p: PatientPick | null) => void;
  order: OrderPick | null;
  onOrder: (o: OrderPick | null) => void;
}) {
  const t = useMessagesT(messagesEn);
  const dp = useDataProvider<ConsoleDataProvider>();
  const [text, setText] = useState('');
  const typed = useDebounced(text.trim(), PATIENT_PICK_DEBOUNCE_MS);
  const [options, setOptions] = useState<PatientPick[]>([]);
  const [orders, setOrders] = useState<OrderPick[]>([]);
  useEffect(() => {
    if (typed.length < PATIENT_PICK_MIN_CHARS) return setOptions([]);
    let live = true;
    dp.call<{ content: PatientPick[] }>({ path: `${API.portal}/patients/picker`, query: { text: typed } })
      .then((r) => live && setOptions(r.data.content))
      .catch(() => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [typed, dp]);
  const patientId = props.patient?.id ?? null;
  useEffect(() => {
    if (!patientId) return setOrders([]);
    let live = true;
    dp.call<{ content: OrderPick[] }>({
      path: 'testOrderForms',
      query: { filter: { patientId, status: 'SUBMITTED' }, page: 0, size: 50 },
    })
      .then((r) => live && setOrders(r.data.content))
      .catch(() => live && setOrders([]));
    return () => {
      live = false;
    };
  }, [patientId, dp]);
  const label = (p: PatientPick) => [p.name, p.userId].filter(Boolean).join(' · ');
  return (
    <>
      <Autocomplete
        size="small"
        options={options}
        value={props.patient}
        filterOptions={(x) => x}
        getOptionLabel={label}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        noOptionsText={
          typed.length < PATIENT_PICK_MIN_CHARS ? t('messages.patientSearch') : t('messages.noPatients')
        }
        onInputChange={(_, v, reason) => reason === 'input' && setText(v)}
        onChange={(_, v) => {
          props.onPatient(v);
          props.onOrder(null);
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('messages.patient')}
            helperText={t('messages.patientSearch')}
            inputProps={{ ...params.inputProps, 'data-testid': 'messages-patient' }}
          />
        )}
      />
      <TextField
        select
        size="small"
        label={t('messages.trf')}
        value={props.order?.id ?? ''}
        disabled={!props.patient}
        helperText={props.patient ? ' ' : t('messages.trfPick')}
        onChange={(e) => {
          const o = orders.find((x) => x.id === e.target.value);
          props.onOrder(o ? { id: o.id, testRequisitionId: o.testRequisitionId } : null);
        }}
        slotProps={{ htmlInput: { 'data-testid': 'messages-trf' } }}
      >
        <MenuItem value="" data-value="">
          {t('messages.noOrder')}
        </MenuItem>
        {orders.map((o) => (
          <MenuItem key={o.id} value={o.id} data-value={o.id}>
            {o.testRequisitionId ?? o.id}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

/**
 * The new-message form: the order, patient and location it was opened with (or, from the Messages page, a
 * patient and one of their orders to pick), a subject and the message.
 */
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
  const [pickedPatient, setPickedPatient] = useState<PatientPick | null>(null);
  const [pickedOrder, setPickedOrder] = useState<OrderPick | null>(null);
  const c = props.context;
  // opened from an order or a patient: that is what it is about; otherwise what the writer picks
  const fixed = Boolean(c.testOrderForm || c.patient);
  const patient = fixed
    ? (c.patient ?? null)
    : pickedPatient && { id: pickedPatient.id, name: pickedPatient.name };
  const testOrderForm = fixed ? (c.testOrderForm ?? null) : pickedOrder;
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
          testOrderForm,
          patient,
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
      {fixed ? null : (
        <AboutPicker
          patient={pickedPatient}
          onPatient={setPickedPatient}
          order={pickedOrder}
          onOrder={setPickedOrder}
        />
      )}
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
