import { useMaintenance } from './MaintenanceContext';
import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { FormDialog } from '../components/FormDialog';
import type { ConsoleDataProvider, MaintenanceWindow } from '../providers/dataProvider';
import { formatDateTime } from './format';

/** `<input type="datetime-local">` value for a time in epoch ms, in the browser's time zone. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/**
 * Maintenance windows for administrators (CAN_MANAGE_MAINTENANCE): the scheduled windows, schedule one, cancel
 * one. The server checks the permission and the times (end after start and in the future).
 */
export function MaintenanceAdminDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [windows, setWindows] = useState<MaintenanceWindow[]>([]);
  const [title, setTitle] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the banner and the maintenance screen follow a change at once, not at their next refresh
  const { reload: reloadShell } = useMaintenance();

  const load = useCallback(
    () =>
      dataProvider
        .getMaintenance()
        .then(({ data }) => setWindows(data))
        .catch(() => undefined),
    [dataProvider],
  );
  useEffect(() => {
    if (!open) return;
    const now = Date.now();
    setTitle(translate('app.maintenanceAdmin.defaultTitle'));
    setStart(localInput(now + 60 * 60_000));
    setEnd(localInput(now + 2 * 60 * 60_000));
    setError(null);
    void load();
  }, [open, load, translate]);

  const schedule = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await dataProvider.scheduleMaintenance({
        startTime: new Date(start).getTime(),
        endTime: new Date(end).getTime(),
        title: title.trim(),
      });
      notify('app.maintenanceAdmin.scheduled', { type: 'success' });
      reloadShell();
      await load();
    } catch (err: any) {
      setError(err?.body?.message ?? err?.message ?? translate('app.error.generic'));
    } finally {
      setBusy(false);
    }
  };
  const cancel = async (id: string) => {
    try {
      await dataProvider.cancelMaintenance({ id });
      notify('app.maintenanceAdmin.cancelled', { type: 'success' });
      reloadShell();
      await load();
    } catch (err: any) {
      notify(err?.body?.message ?? translate('app.error.generic'), { type: 'error' });
    }
  };

  return (
    <FormDialog
      open={open}
      title={translate('app.maintenanceAdmin.title')}
      onClose={onClose}
      maxWidth="md"
      dividers
      cancelLabel={translate('ra.action.close')}
    >
      <Table size="small" data-testid="maintenance-windows">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.maintenanceAdmin.windowTitle')}</TableCell>
            <TableCell>{translate('app.maintenanceAdmin.start')}</TableCell>
            <TableCell>{translate('app.maintenanceAdmin.end')}</TableCell>
            <TableCell>{translate('app.maintenanceAdmin.bannerFrom')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {windows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5} sx={{ color: 'text.secondary', textAlign: 'center', py: 3 }}>
                {translate('app.maintenanceAdmin.none')}
              </TableCell>
            </TableRow>
          ) : (
            windows.map((w) => (
              <TableRow key={w.id}>
                <TableCell>{w.title}</TableCell>
                <TableCell>{formatDateTime(w.startTime)}</TableCell>
                <TableCell>{formatDateTime(w.endTime)}</TableCell>
                <TableCell>{formatDateTime(Math.max(w.displayTime, w.startTime - 60 * 60_000))}</TableCell>
                <TableCell align="right">
                  <Tooltip title={translate('app.maintenanceAdmin.cancel')}>
                    <IconButton
                      size="small"
                      onClick={() => cancel(w.id)}
                      aria-label={translate('app.maintenanceAdmin.cancel')}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      <Box component="form" onSubmit={schedule} noValidate sx={{ mt: 3 }} data-testid="maintenance-schedule">
        <Typography variant="subtitle2" sx={{ mb: 1.5 }}>
          {translate('app.maintenanceAdmin.schedule')}
        </Typography>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            name="title"
            label={translate('app.maintenanceAdmin.windowTitle')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
          <TextField
            name="startTime"
            type="datetime-local"
            label={translate('app.maintenanceAdmin.start')}
            value={start}
            onChange={(e) => setStart(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            name="endTime"
            type="datetime-local"
            label={translate('app.maintenanceAdmin.end')}
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !title.trim() || !start || !end}
            sx={{ flexShrink: 0 }}
          >
            {translate('app.maintenanceAdmin.add')}
          </Button>
        </Stack>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          {translate('app.maintenanceAdmin.hint')}
        </Typography>
      </Box>
    </FormDialog>
  );
}
