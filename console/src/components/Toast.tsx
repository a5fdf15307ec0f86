import { useCallback } from 'react';
import { Notification, useNotify, type NotificationProps } from 'react-admin';

/** Toasts appear top right and close themselves after 18 seconds (spec 3 sections 8 and 9.1). */
export const TOAST_AUTO_CLOSE_MS = 18_000;
export type ToastKind = 'error' | 'success' | 'info' | 'warning';

/** Pass to <Admin notification={ToastNotification}>: react-admin's notifications, placed and timed per spec. */
export function ToastNotification(props: NotificationProps) {
  return (
    <Notification
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      autoHideDuration={TOAST_AUTO_CLOSE_MS}
      {...props}
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
