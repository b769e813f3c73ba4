import type { BillingWorklistRow } from '@rpm/contracts';

export const WORKLIST_SORTS = [
  'patient',
  'at_risk',
  'device_days',
  'minutes',
  'interactive',
  'last_reading',
  'last_outreach',
] as const;
export type WorklistSort = (typeof WORKLIST_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

const sortValue: Record<WorklistSort, (row: BillingWorklistRow) => string | number | null> = {
  patient: (r) => r.patient_name.toLocaleLowerCase(),
  at_risk: (r) => Number(r.at_risk),
  device_days: (r) => r.device_days,
  minutes: (r) => r.minutes,
  interactive: (r) => Number(r.interactive),
  last_reading: (r) => r.last_reading_at && Date.parse(r.last_reading_at),
  last_outreach: (r) => r.last_outreach_at && Date.parse(r.last_outreach_at),
};

/** The direction a column sorts in on its first click: flags and dates show the most pressing first. */
export const firstOrder = (sort: WorklistSort): SortOrder =>
  sort === 'patient' || sort === 'device_days' || sort === 'minutes' ? 'asc' : 'desc';

export const isWorklistSort = (value: string | null): value is WorklistSort =>
  (WORKLIST_SORTS as readonly (string | null)[]).includes(value);

/**
 * The rows by one column, stable (ties keep the server's order, which ranks by what can still be
 * earned); a missing value (no reading, no outreach) goes last either way. No column: as sent.
 */
export function sortWorklist(
  rows: readonly BillingWorklistRow[],
  sort: WorklistSort | null,
  order: SortOrder,
): BillingWorklistRow[] {
  if (!sort) return [...rows];
  const value = sortValue[sort];
  const sign = order === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
      if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * sign;
      return a.index - b.index;
    })
    .map(({ row }) => row);
}
