import { TextField } from '@mui/material';
import { lengthText, MESSAGE_MAX } from './logic';

/** A message or reply box: multiline, at most MESSAGE_MAX characters, the count under it on the right. */
export function MessageTextField(props: {
  value: string;
  onChange: (value: string) => void;
  minRows: number;
  testId: string;
  label?: string;
  placeholder?: string;
  required?: boolean;
}) {
  return (
    <TextField
      size="small"
      label={props.label}
      placeholder={props.placeholder}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required={props.required}
      multiline
      minRows={props.minRows}
      helperText={lengthText(props.value)}
      slotProps={{
        htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': props.testId },
        formHelperText: { sx: { textAlign: 'right' } },
      }}
    />
  );
}
