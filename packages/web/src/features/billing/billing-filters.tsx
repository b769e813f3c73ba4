import { MenuItem, Stack, TextField } from '@mui/material';
import { BillingTexts } from '@rpm/contracts';
import type { ReactNode } from 'react';
import { MONTH } from './billing-month.ts';

/** The row of filters and actions above a view: stacked on a phone, wrapping on a wider screen. */
export function FilterBar({
  alignItems = 'center',
  children,
}: {
  alignItems?: 'center' | 'flex-start';
  children: ReactNode;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      useFlexGap
      sx={{ mb: 2, alignItems: { sm: alignItems }, flexWrap: 'wrap' }}
    >
      {children}
    </Stack>
  );
}

/** The month picker both views share; only a whole month (YYYY-MM) is taken. */
export function MonthField({ value, onChange }: { value: string; onChange: (month: string) => void }) {
  return (
    <TextField
      type="month"
      label={BillingTexts.month}
      value={value}
      onChange={(e) => MONTH.test(e.target.value) && onChange(e.target.value)}
      size="small"
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

interface SelectFilterProps {
  label: string;
  /** The option meaning "no filter". */
  allLabel: string;
  value: string;
  options: readonly { value: string; label: string }[] | undefined;
  onChange: (value: string) => void;
  disabled?: boolean;
  helperText?: string;
}

/** A filter select whose empty value is "all". */
export function SelectFilter({ label, allLabel, value, options, onChange, disabled, helperText }: SelectFilterProps) {
  return (
    <TextField
      select
      label={label}
      // Until the options have arrived the chosen one is not among them yet.
      value={options?.some((o) => o.value === value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      size="small"
      sx={{ minWidth: 200 }}
      disabled={disabled}
      helperText={helperText}
      slotProps={{
        select: { displayEmpty: true },
        inputLabel: { shrink: true },
        // The hint says why the filter is off: it is read, so it keeps a readable colour when the field is disabled.
        formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
      }}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {(options ?? []).map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
