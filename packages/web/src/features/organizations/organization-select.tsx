import { TextField } from '@mui/material';
import type { Organization } from '@rpm/contracts';

/** Which organization a settings section edits; shown only when there is more than one. */
export function OrganizationSelect({
  label,
  organizations,
  value,
  onChange,
}: {
  label: string;
  organizations: readonly Organization[];
  value: number;
  onChange: (id: number) => void;
}) {
  if (organizations.length < 2) return null;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ maxWidth: 420 }}
    >
      {organizations.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </TextField>
  );
}
