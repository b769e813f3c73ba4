import { Button, InputAdornment } from '@mui/material';
import { AuthLabels, Labels } from '@rpm/contracts';
import { useId, useState } from 'react';
import { OutlinedField, type OutlinedFieldProps } from './outlined-field.tsx';

/** A password input with the spec's Show/Hide toggle. */
export function PasswordField(props: Omit<OutlinedFieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  const generatedId = useId();
  const id = props.id ?? generatedId;
  return (
    <OutlinedField
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

type FieldProps = Omit<OutlinedFieldProps, 'type' | 'label'>;

/**
 * "New password" and "Confirm password", both with the Show/Hide toggle; their values, checks
 * and messages come from the form they are in (the contracts' `newPasswordPair`).
 */
export function NewPasswordFields({ password, confirm, autoFocus }: { password: FieldProps; confirm: FieldProps; autoFocus?: boolean }) {
  return (
    <>
      <PasswordField label={AuthLabels.newPassword} autoComplete="new-password" autoFocus={autoFocus} fullWidth {...password} />
      <PasswordField label={AuthLabels.confirmPassword} autoComplete="new-password" fullWidth {...confirm} />
    </>
  );
}
