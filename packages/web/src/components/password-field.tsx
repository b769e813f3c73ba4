import { Button, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { AuthLabels, Labels, Validation, meetsPasswordPolicy } from '@rpm/contracts';
import { useId, useState } from 'react';
import { helperLine } from './helper-text.ts';

/** A password input with the spec's Show/Hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  const generatedId = useId();
  const id = props.id ?? generatedId;
  return (
    <TextField
      {...props}
      id={id}
      type={visible ? 'text' : 'password'}
      slotProps={{
        ...props.slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Button
                size="small"
                onClick={() => setVisible((v) => !v)}
                aria-controls={id}
                aria-pressed={visible}
                sx={{ minWidth: 0 }}
              >
                {visible ? Labels.hide : Labels.show}
              </Button>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** The checks on a new password and its confirmation, keyed by the field they belong to. */
export function newPasswordErrors(password: string, confirm: string): { password?: string; confirm?: string } {
  const errors: { password?: string; confirm?: string } = {};
  if (!meetsPasswordPolicy(password)) errors.password = Validation.passwordPolicy;
  if (password !== confirm) errors.confirm = Validation.passwordsMismatch;
  return errors;
}

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  errors: { password?: string; confirm?: string };
  /** Told each field's own check as the user leaves it: the message, or null when it is fine. */
  onValidate?: (field: 'password' | 'confirm', message: string | null) => void;
  autoFocus?: boolean;
}

/** "New password" and "Confirm password", both with the Show/Hide toggle. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  errors,
  onValidate,
  autoFocus,
}: NewPasswordFieldsProps) {
  // Only what has been typed is judged on leaving; the submit check covers empty fields.
  const check = (field: 'password' | 'confirm') => () => {
    if (!onValidate) return;
    const value = field === 'password' ? password : confirm;
    onValidate(field, value ? (newPasswordErrors(password, confirm)[field] ?? null) : null);
  };
  return (
    <>
      <PasswordField
        label={AuthLabels.newPassword}
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        onBlur={check('password')}
        error={!!errors.password}
        helperText={helperLine(errors.password)}
        fullWidth
      />
      <PasswordField
        label={AuthLabels.confirmPassword}
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
        onBlur={check('confirm')}
        error={!!errors.confirm}
        helperText={helperLine(errors.confirm)}
        fullWidth
      />
    </>
  );
}
