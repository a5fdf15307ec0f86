import { useCallback, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  type ButtonProps,
  type DialogProps,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useToast } from './Toast';
import { useT } from './useT';

export interface FormDialogProps {
  /** defaults to true (a dialog that is mounted only while it is open) */
  open?: boolean;
  title: ReactNode;
  /** Cancel (unless onCancel), Escape, or a click outside; not while busy */
  onClose: () => void;
  children?: ReactNode;
  /** the dialog's width (always fullWidth up to it); defaults to 'sm' */
  maxWidth?: DialogProps['maxWidth'];
  /** the dialog's data-testid */
  testId?: string;
  /** a call runs: the dialog does not close, Cancel and the primary button are disabled, the primary spins */
  busy?: boolean;
  /** Escape and a click outside do not close it (as while busy), e.g. while a check runs */
  locked?: boolean;
  /** an error line (Alert) above the content */
  error?: ReactNode;
  dividers?: boolean;
  titleSx?: SxProps<Theme>;
  contentSx?: SxProps<Theme>;
  actionsSx?: SxProps<Theme>;
  /** the primary (contained) button's text; no primary button without it */
  submitLabel?: ReactNode;
  onSubmit?: () => unknown;
  /** the primary button is disabled (e.g. an invalid form); it is disabled while busy anyway */
  submitDisabled?: boolean;
  submitTestId?: string;
  /** the primary button's icon when not busy */
  submitIcon?: ReactNode;
  submitColor?: ButtonProps['color'];
  /** the Cancel button's text (default 'Cancel'); null for no Cancel button */
  cancelLabel?: ReactNode | null;
  cancelColor?: ButtonProps['color'];
  cancelTestId?: string;
  /** what Cancel does; defaults to onClose */
  onCancel?: () => void;
  /** Cancel is disabled; defaults to busy */
  cancelDisabled?: boolean;
  /** a close-only dialog: one contained button with this text that closes it (instead of Cancel and a primary) */
  closeLabel?: ReactNode;
  closeTestId?: string;
  /** the primary (or Close) button takes the focus when the dialog opens */
  autoFocusAction?: boolean;
  /** more buttons, before Cancel (or Close) */
  extraActions?: ReactNode;
  /** replaces the whole button row (Cancel, primary and extraActions) */
  actions?: ReactNode;
  /** anything else for MUI's Dialog (scroll, aria-labelledby, slotProps ...) */
  dialogProps?: Omit<Partial<DialogProps>, 'open' | 'onClose' | 'children' | 'maxWidth'>;
}

/**
 * The one form dialog: a title, the content, and Cancel + a primary button that spins and disables both while
 * the dialog is busy (which also keeps it from closing). A close-only dialog passes `closeLabel` (a contained
 * Close button), or just a `cancelLabel` for a text one.
 */
export function FormDialog(props: FormDialogProps) {
  const t = useT();
  const { open = true, onClose, busy = false, cancelLabel, submitLabel, closeLabel } = props;
  const buttons = props.actions ?? (
    <>
      {props.extraActions}
      {closeLabel === undefined ? null : (
        <Button
          variant="contained"
          onClick={onClose}
          autoFocus={props.autoFocusAction}
          data-testid={props.closeTestId}
        >
          {closeLabel}
        </Button>
      )}
      {cancelLabel === null || closeLabel !== undefined ? null : (
        <Button
          onClick={props.onCancel ?? onClose}
          disabled={props.cancelDisabled ?? busy}
          color={props.cancelColor}
          data-testid={props.cancelTestId}
        >
          {cancelLabel ?? t('dialogs.cancel')}
        </Button>
      )}
      {submitLabel === undefined ? null : (
        <Button
          variant="contained"
          color={props.submitColor}
          onClick={() => void props.onSubmit?.()}
          disabled={busy || props.submitDisabled}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : props.submitIcon}
          autoFocus={props.autoFocusAction}
          data-testid={props.submitTestId}
        >
          {submitLabel}
        </Button>
      )}
    </>
  );
  return (
    <Dialog
      fullWidth
      {...props.dialogProps}
      open={open}
      onClose={busy || props.locked ? undefined : onClose}
      maxWidth={props.maxWidth ?? 'sm'}
      data-testid={props.testId}
    >
      <DialogTitle sx={props.titleSx}>{props.title}</DialogTitle>
      <DialogContent dividers={props.dividers} sx={props.contentSx}>
        {props.error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {props.error}
          </Alert>
        ) : null}
        {props.children}
      </DialogContent>
      <DialogActions sx={props.actionsSx}>{buttons}</DialogActions>
    </Dialog>
  );
}

export interface SaveOptions<T> {
  /** the success toast's text */
  success?: string;
  /** the error toast's text for this error (none when it is empty) */
  failure?: string | ((error: unknown) => string | null | undefined);
  /** after the success toast */
  onDone?: (result: T) => void;
  /** before the error toast */
  onError?: (error: unknown) => void;
}

/**
 * `save(call, options)`: busy while the call runs, then a success toast and onDone, or onError and an error toast.
 * Resolves to whether the call succeeded.
 */
export function useSave() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const save = useCallback(
    async <T,>(call: () => Promise<T>, options: SaveOptions<T> = {}): Promise<boolean> => {
      setBusy(true);
      try {
        const result = await call();
        if (options.success) toast('success', options.success);
        options.onDone?.(result);
        return true;
      } catch (e) {
        options.onError?.(e);
        const text = typeof options.failure === 'function' ? options.failure(e) : options.failure;
        if (text) toast('error', text);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [toast],
  );
  return { busy, save };
}
