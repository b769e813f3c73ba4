import { TablePagination } from '@mui/material';
import { BILLING_PAGE_SIZE, BILLING_PAGE_SIZE_OPTIONS, BillingPageTexts } from '@rpm/contracts';
import { WRAPPING_PAGER_SX } from '../../components/pager-sx.ts';
import { usePagerSelect } from '../../components/pager-select.ts';

/** The page the address asks for: `page` (from 0) and `rows` per page, one of the offered sizes. */
export function billingPageOf(search: URLSearchParams): { limit: number; offset: number } {
  const rows = Number(search.get('rows'));
  const limit = (BILLING_PAGE_SIZE_OPTIONS as readonly number[]).includes(rows) ? rows : BILLING_PAGE_SIZE;
  const page = Number(search.get('page'));
  return { limit, offset: Number.isInteger(page) && page > 0 ? page * limit : 0 };
}

interface Props {
  total: number;
  limit: number;
  offset: number;
  update: (changes: Record<string, string | number | undefined>) => void;
}

/**
 * The pager under the billing worklist and report: the server sends one page of the rows. The
 * position ("Showing 1–50 of 10,000") is a status, so a screen reader says it as it changes; the
 * buttons carry their names; the bar wraps on a phone instead of running off the screen.
 */
export function BillingPager({ total, limit, offset, update }: Props) {
  const pagerSelect = usePagerSelect();
  return (
    <TablePagination
      component="nav"
      aria-label={BillingPageTexts.pager}
      count={total}
      page={Math.min(Math.floor(offset / limit), Math.max(0, Math.ceil(total / limit) - 1))}
      rowsPerPage={limit}
      rowsPerPageOptions={[...BILLING_PAGE_SIZE_OPTIONS]}
      labelRowsPerPage={BillingPageTexts.rowsPerPage}
      labelDisplayedRows={({ from, to, count }) => BillingPageTexts.showing(from, to, count)}
      getItemAriaLabel={(type) => BillingPageTexts.pageButton[type]}
      showFirstButton
      showLastButton
      onPageChange={(_e, page) => update({ page })}
      // A new page size starts again at the first page (any change but the page does).
      onRowsPerPageChange={(e) => update({ rows: Number(e.target.value) })}
      slotProps={{ select: pagerSelect, displayedRows: { role: 'status', 'aria-live': 'polite' } }}
      sx={WRAPPING_PAGER_SX}
    />
  );
}
