import { MenuItem, TextField } from '@mui/material';
import { AlertTexts } from '@rpm/contracts';

/** One of the worklist's filters: a small drop-down, with an "any" choice when the filter may be left open. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  any = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  any?: boolean;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 180 }}
    >
      {any && <MenuItem value="">{AlertTexts.any}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
