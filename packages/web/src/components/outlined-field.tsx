import { FormControl, FormHelperText, InputLabel, OutlinedInput, type InputBaseComponentProps } from '@mui/material';
import { useId, type ChangeEventHandler, type FocusEventHandler, type ReactNode, type Ref } from 'react';

export interface OutlinedFieldProps {
  id?: string;
  name?: string;
  label?: ReactNode;
  type?: string;
  value?: unknown;
  onChange?: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  inputRef?: Ref<HTMLInputElement>;
  error?: boolean;
  helperText?: ReactNode;
  autoFocus?: boolean;
  autoComplete?: string;
  fullWidth?: boolean;
  required?: boolean;
  disabled?: boolean;
  slotProps?: { htmlInput?: InputBaseComponentProps; input?: { endAdornment?: ReactNode } };
}

/*
 * The outlined text field of MUI's TextField, with the same markup, labels and descriptions, for
 * the signed-out pages. TextField also imports the select, menu and popover machinery for its
 * `select` mode (about 15 kB compressed), which the sign-in page would otherwise carry.
 */
export function OutlinedField({
  id: idProp,
  label,
  helperText,
  error,
  fullWidth,
  required,
  disabled,
  slotProps,
  ...input
}: OutlinedFieldProps) {
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const hasLabel = label != null && label !== '';
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      error={error}
      fullWidth={fullWidth}
      required={required}
      disabled={disabled}
    >
      {hasLabel && (
        <InputLabel htmlFor={id} id={`${id}-label`}>
          {label}
        </InputLabel>
      )}
      <OutlinedInput
        {...input}
        id={id}
        aria-describedby={helperTextId}
        fullWidth={fullWidth}
        label={label}
        inputProps={slotProps?.htmlInput}
        endAdornment={slotProps?.input?.endAdornment}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
