import type { ReactNode } from 'react';
import { Box, TextField, type SxProps, type Theme } from '@mui/material';
import { FormDialog, type FormDialogProps } from '../../components/FormDialog';

/** The users screen's dialogs: small, dividers, an inherit-coloured Cancel, roomier buttons. */
export function UserDialog(props: FormDialogProps) {
  return <FormDialog dividers actionsSx={{ px: 3, py: 1.5 }} cancelColor="inherit" {...props} />;
}

/** The user forms' fields, two to a row from the small breakpoint. */
export function UserFieldGrid({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, pt: 1 }}>
      {children}
    </Box>
  );
}

const READ_ONLY_SX = { '& .MuiInputBase-root': { bgcolor: 'grey.100' } };

/** A read-only value on a grey background. */
export function ReadOnlyField(props: {
  label: string;
  value: string;
  testId?: string;
  /** a blank line by default; '' for none */
  helperText?: string;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      helperText={props.helperText ?? ' '}
      slotProps={{
        input: { readOnly: true },
        htmlInput: props.testId ? { 'data-testid': props.testId } : undefined,
      }}
      sx={[READ_ONLY_SX, ...(Array.isArray(props.sx) ? props.sx : props.sx ? [props.sx] : [])]}
    />
  );
}

/**
 * The text fields of a user form over one `form` object: `text(name, label, options)` is a full-width field named
 * `name`, required unless said otherwise, its message (or a blank line) under it.
 */
export function userTextFields<F extends Record<string, string>>(
  form: F,
  setForm: (update: (f: F) => F) => void,
  shown: (name: keyof F & string) => string | undefined = () => undefined,
  onBlur?: (name: keyof F & string) => void,
) {
  return (name: keyof F & string, label: string, options: { type?: string; required?: boolean } = {}) => (
    <TextField
      label={label}
      name={name}
      type={options.type}
      required={options.required ?? true}
      value={form[name]}
      onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
      onBlur={onBlur ? () => onBlur(name) : undefined}
      error={Boolean(shown(name))}
      helperText={shown(name) ?? ' '}
      fullWidth
    />
  );
}
