import { BILLING_WORKLIST_SORTS, type BillingWorklistSort, type SortOrder } from '@rpm/contracts';

/** The direction a column sorts in on its first click: flags and dates show the most pressing first. */
export const firstOrder = (sort: BillingWorklistSort): SortOrder =>
  sort === 'patient' || sort === 'device_days' || sort === 'minutes' ? 'asc' : 'desc';

export const isWorklistSort = (value: string | null): value is BillingWorklistSort =>
  (BILLING_WORKLIST_SORTS as readonly (string | null)[]).includes(value);
