import { useState } from 'react';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslate } from 'react-admin';
import { allowedPassword, PasswordChecklist } from './PasswordChecklist';

/** A password input with a show/hide toggle that refuses characters outside the allowed pattern. */
export function PasswordField({
  value,
  onValueChange,
  ...props
}: Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  value: string;
  onValueChange: (v: string) => void;
}) {
  const [shown, setShown] = useState(false);
  const translate = useTranslate();
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      value={value}
      onChange={(e) => onValueChange(allowedPassword(e.target.value, value))}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={translate(shown ? 'app.login.hidePassword' : 'app.login.showPassword')}
                onClick={() => setShown((s) => !s)}
                edge="end"
                size="small"
                tabIndex={-1}
              >
                {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
        htmlInput: { autoComplete: props.autoComplete ?? 'current-password', spellCheck: false },
      }}
    />
  );
}

/** A new password, its confirmation and the live checklist of the rules (Change Password, Reset Password). */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  size,
}: {
  password: string;
  confirm: string;
  onPassword: (v: string) => void;
  onConfirm: (v: string) => void;
  size?: TextFieldProps['size'];
}) {
  const translate = useTranslate();
  return (
    <>
      <PasswordField
        name="newPassword"
        label={translate('app.password.new')}
        value={password}
        onValueChange={onPassword}
        autoComplete="new-password"
        size={size}
      />
      <PasswordField
        name="confirmPassword"
        label={translate('app.password.confirm')}
        value={confirm}
        onValueChange={onConfirm}
        autoComplete="new-password"
        size={size}
      />
      <PasswordChecklist password={password} confirm={confirm} />
    </>
  );
}
