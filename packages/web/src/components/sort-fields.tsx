import { MenuItem, TextField } from '@mui/material';
import { SORT_ORDERS, UxTexts, type SortOrder } from '@rpm/contracts';

interface SortFieldsProps<S extends string> {
  /** The columns the list can be sorted by, with their headings' labels. */
  options: readonly { value: S; label: string }[];
  sort: S | null;
  order: SortOrder;
  /** Where the list has an order of its own (no column chosen): how that choice reads. */
  ownOrderLabel?: string;
  onSort: (sort: S | null) => void;
  onOrder: (order: SortOrder) => void;
}

/**
 * A list's sort as two fields, for a phone: there the heading row is drawn as labels or cards, so
 * its sort buttons are not on screen. The direction is asked only once a column is chosen.
 */
export function SortFields<S extends string>({
  options,
  sort,
  order,
  ownOrderLabel,
  onSort,
  onOrder,
}: SortFieldsProps<S>) {
  return (
    <>
      <TextField
        select
        size="small"
        label={UxTexts.sortBy}
        value={sort ?? ''}
        onChange={(e) => onSort(options.find((o) => o.value === e.target.value)?.value ?? null)}
        sx={{ minWidth: 200 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        {ownOrderLabel !== undefined && <MenuItem value="">{ownOrderLabel}</MenuItem>}
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      {sort !== null && (
        <TextField
          select
          size="small"
          label={UxTexts.sortOrder}
          value={order}
          onChange={(e) => onOrder(e.target.value === 'desc' ? 'desc' : 'asc')}
          sx={{ minWidth: 200 }}
        >
          {SORT_ORDERS.map((o) => (
            <MenuItem key={o} value={o}>
              {UxTexts.sortOrderNames[o]}
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
