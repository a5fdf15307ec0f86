import { useCallback, useEffect, useState } from 'react';
import { Snackbar, type SnackbarProps } from '@mui/material';
import { useNotificationContext, useNotify, useTranslate, type NotificationPayload } from 'react-admin';

/** Toasts appear top right and close themselves after 18 seconds (spec 3 sections 8 and 9.1). */
export const TOAST_AUTO_CLOSE_MS = 18_000;
export type ToastKind = 'error' | 'success' | 'info' | 'warning';

/**
 * What the toast area does when the queue of notifications changes: show the next one when none is on screen,
 * close the one on screen when a newer one waits (the newer shows once it has left), else nothing. react-admin's
 * own Notification shows every queued toast for its full 18 seconds, one after the other, so the answer to what
 * the user just did could show 18 seconds (or more) late, behind older ones.
 */
export function toastStep(state: {
  queued: number;
  showing: boolean;
  open: boolean;
}): 'take' | 'close' | 'none' {
  if (state.queued === 0) return 'none';
  if (!state.showing) return 'take';
  return state.open ? 'close' : 'none';
}

const toastSx = {
  '& .MuiSnackbarContent-root': { whiteSpace: 'pre-wrap' },
  '& .toast-success': { bgcolor: 'success.main', color: 'success.contrastText' },
  '& .toast-error': { bgcolor: 'error.main', color: 'error.contrastText' },
  '& .toast-warning': { bgcolor: 'warning.main', color: 'warning.contrastText' },
} as const;

/**
 * Pass to <Admin notification={ToastNotification}>: react-admin's notifications (useNotify / useToast), top right,
 * each closing after 18 s, and a newer one replacing the one on screen (toastStep).
 */
export function ToastNotification({ sx, ...props }: Omit<SnackbarProps, 'open'>) {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<NotificationPayload | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const step = toastStep({ queued: notifications.length, showing: current !== null, open });
    if (step === 'take') {
      const next = takeNotification();
      if (next) {
        setCurrent(next);
        setOpen(true);
      }
    } else if (step === 'close') setOpen(false);
  }, [notifications, current, open, takeNotification]);

  const close = useCallback(() => setOpen(false), []);
  if (!current) return null;
  const { message, type, notificationOptions: options = {} } = current;
  const text = typeof message === 'string' ? translate(message, options.messageArgs) : message;
  return (
    <Snackbar
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      {...props}
      sx={[toastSx, ...(Array.isArray(sx) ? sx : [sx])]}
      open={open}
      autoHideDuration={
        options.autoHideDuration === undefined ? TOAST_AUTO_CLOSE_MS : (options.autoHideDuration ?? undefined)
      }
      onClose={close}
      message={text}
      slotProps={{
        content: { className: `toast-${type ?? 'info'}`, role: 'alert' },
        transition: { onExited: () => setCurrent(null) },
      }}
    />
  );
}

/**
 * toast(kind, message): shows a toast of the given kind. The message is shown as given (already translated);
 * react-admin would otherwise try it as a translation key.
 */
export function useToast() {
  const notify = useNotify();
  return useCallback(
    (kind: ToastKind, message: string) =>
      notify(message, {
        type: kind,
        autoHideDuration: TOAST_AUTO_CLOSE_MS,
        messageArgs: { _: message },
      }),
    [notify],
  );
}
