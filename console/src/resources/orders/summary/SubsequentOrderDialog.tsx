import { useState } from 'react';
import { Box, MenuItem, TextField, Typography } from '@mui/material';
import { BLOOD_COLLECTION_MODES, dateWindows, formatDisplayDate } from '@onco/domain';
import { useDataProvider } from 'react-admin';
import { FormDialog, useSave } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { enumLabel, todayIso } from '../list/logic';
import { useOrdersT } from '../list/useOrdersT';
import { errorText } from './api';

export interface SubsequentOrderDialogProps {
  open: boolean;
  requisitionId: string;
  patientNumber: string;
  onClose: () => void;
  /** the new order's id */
  onCreated: (id: string) => void;
}

/**
 * Confirm Subsequent Order (spec 2 section 4): an optional collection date from 3 months back to 3 months ahead
 * (the domain's window) and an optional collection mode from the list; Yes creates the order
 * (POST /testOrderForms/{id}/subsequentOrder) and opens it.
 */
export function SubsequentOrderDialog({
  open,
  requisitionId,
  patientNumber,
  onClose,
  onCreated,
}: SubsequentOrderDialogProps) {
  const t = useOrdersT();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const win = dateWindows(todayIso()).subsequentOrderCollection;
  const [date, setDate] = useState('');
  const [mode, setMode] = useState('');
  const { busy, save } = useSave();
  const dateInvalid = date !== '' && (date < win.min || date > win.max);

  const confirm = () =>
    save(
      () =>
        dataProvider.call<{ id: string }>({
          path: `testOrderForms/${encodeURIComponent(requisitionId)}/subsequentOrder`,
          method: 'POST',
          body: { collectionDate: date || null, collectionMode: mode || null },
        }),
      {
        onDone: ({ data }) => onCreated(data.id),
        failure: (e) => errorText(e, t('orders.summary.createFailed')) || t('orders.summary.createFailed'),
      },
    );

  return (
    <FormDialog
      open={open}
      title={t('orders.summary.subsequentTitle')}
      onClose={onClose}
      maxWidth="xs"
      busy={busy}
      cancelLabel={t('ra.boolean.false', { _: 'No' })}
      submitLabel={t('ra.boolean.true', { _: 'Yes' })}
      onSubmit={confirm}
      submitDisabled={dateInvalid}
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('orders.summary.subsequentMessage', { patient: patientNumber })}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          type="date"
          size="small"
          label={t('orders.summary.collectionDate')}
          value={date}
          onChange={(e) => setDate(e.target.value)}
          error={dateInvalid}
          helperText={
            dateInvalid
              ? t('orders.summary.invalidCollectionDate', {
                  min: formatDisplayDate(win.min),
                  max: formatDisplayDate(win.max),
                })
              : undefined
          }
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { min: win.min, max: win.max, 'data-testid': 'subsequent-date' },
          }}
        />
        <TextField
          select
          size="small"
          label={t('orders.summary.collectionMode')}
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'subsequent-mode' } }}
        >
          <MenuItem value="">
            <em>{t('orders.summary.none')}</em>
          </MenuItem>
          {BLOOD_COLLECTION_MODES.map((m) => (
            <MenuItem key={m} value={m}>
              {t(`orders.enum.${m}`, { _: enumLabel(m) })}
            </MenuItem>
          ))}
        </TextField>
      </Box>
    </FormDialog>
  );
}
