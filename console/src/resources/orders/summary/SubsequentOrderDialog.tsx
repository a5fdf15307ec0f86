import { useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { BLOOD_COLLECTION_MODES, dateWindows, formatDisplayDate } from '@onco/domain';
import { useDataProvider } from 'react-admin';
import { useToast } from '../../../components';
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
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const win = dateWindows(todayIso()).subsequentOrderCollection;
  const [date, setDate] = useState('');
  const [mode, setMode] = useState('');
  const [busy, setBusy] = useState(false);
  const dateInvalid = date !== '' && (date < win.min || date > win.max);

  const confirm = async () => {
    setBusy(true);
    try {
      const { data } = await dataProvider.call<{ id: string }>({
        path: `testOrderForms/${encodeURIComponent(requisitionId)}/subsequentOrder`,
        method: 'POST',
        body: { collectionDate: date || null, collectionMode: mode || null },
      });
      onCreated(data.id);
    } catch (e) {
      toast('error', errorText(e, t('orders.summary.createFailed')) || t('orders.summary.createFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('orders.summary.subsequentTitle')}</DialogTitle>
      <DialogContent>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('ra.boolean.false', { _: 'No' })}
        </Button>
        <Button
          variant="contained"
          onClick={confirm}
          disabled={busy || dateInvalid}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {t('ra.boolean.true', { _: 'Yes' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
