import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { FormDialog } from './FormDialog';
import { useT } from './useT';

export type ConfirmKind = 'confirmation' | 'error' | 'warning' | 'info';

export interface ConfirmDialogProps {
  open: boolean;
  /** confirmation (default), error, warning or info: sets the icon and its colour */
  kind?: ConfirmKind;
  /** defaults to 'Please Confirm' */
  title?: ReactNode;
  message: ReactNode;
  /** Yes; while its promise runs both buttons are disabled and Yes shows a spinner */
  onConfirm?: () => void | Promise<unknown>;
  /** No, Escape, or a click outside */
  onClose: () => void;
  /** button texts; default Yes / No (OK alone when there is no onConfirm) */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  loading?: boolean;
}

const ICONS = {
  confirmation: { Icon: HelpOutlineIcon, color: 'primary.main' },
  error: { Icon: ErrorOutlineIcon, color: 'error.main' },
  warning: { Icon: WarningAmberIcon, color: 'warning.main' },
  info: { Icon: InfoOutlinedIcon, color: 'info.main' },
} as const;

/** The one confirmation dialog: 'Please Confirm' with Yes / No (or a single OK for a notice). */
export function ConfirmDialog({
  open,
  kind = 'confirmation',
  title,
  message,
  onConfirm,
  onClose,
  confirmLabel,
  cancelLabel,
  loading = false,
}: ConfirmDialogProps) {
  const t = useT();
  const { Icon, color } = ICONS[kind];
  return (
    <FormDialog
      open={open}
      title={
        <>
          <Icon sx={{ color }} />
          {title ?? t('dialogs.pleaseConfirm')}
        </>
      }
      titleSx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}
      onClose={onClose}
      busy={loading}
      maxWidth={false}
      dialogProps={{
        fullWidth: false,
        PaperProps: { sx: { width: '100%', maxWidth: 500 } },
        'aria-labelledby': 'confirm-dialog-title',
      }}
      testId="confirm-dialog"
      actionsSx={{ px: 3, pb: 2 }}
      autoFocusAction
      {...(onConfirm
        ? {
            cancelLabel: cancelLabel ?? t('dialogs.no'),
            cancelColor: 'inherit' as const,
            submitLabel: confirmLabel ?? t('dialogs.yes'),
            submitColor: kind === 'error' ? 'error' : kind === 'warning' ? 'warning' : 'primary',
            onSubmit: onConfirm,
          }
        : { closeLabel: cancelLabel ?? t('dialogs.ok') })}
    >
      <Box sx={{ pl: 4.5 }}>
        {typeof message === 'string' ? <Typography variant="body1">{message}</Typography> : message}
      </Box>
    </FormDialog>
  );
}
