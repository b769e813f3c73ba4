import { useId } from 'react';

/**
 * The rows-per-page choice of every pager, as the browser's own select named by the pager's
 * label (`slotProps={{ select: usePagerSelect() }}`). MUI's menu select keeps its display node in
 * state set from a ref, so each pager that appeared made React draw again at once, in the task
 * that had just drawn the table, and run that table's effects there too: on a phone a patient's
 * record, with two pagers, was blocked about 50 ms longer. A phone also shows its own picker.
 */
export function usePagerSelect() {
  const labelId = useId();
  return { native: true, labelId, inputProps: { 'aria-labelledby': labelId } } as const;
}
