import { Button, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { Labels } from '@rpm/contracts';
import { useId, useState } from 'react';

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
