import { TablePagination } from '@mui/material';
import { WRAPPING_PAGER_SX } from '../../components/pager-sx.ts';
import { usePagerSelect } from '../../components/pager-select.ts';

interface Props {
  total: number;
  page: number;
  rowsPerPage: number;
  options: readonly number[];
  onPage: (page: number) => void;
  onRowsPerPage: (rows: number) => void;
}

/** The pager under the vitals and notes tables (server paging: only the shown page is loaded). */
export function Pager({ total, page, rowsPerPage, options, onPage, onRowsPerPage }: Props) {
  const select = usePagerSelect();
  return (
    <TablePagination
      component="div"
      count={total}
      page={page}
      rowsPerPage={rowsPerPage}
      rowsPerPageOptions={[...options]}
      onPageChange={(_e, p) => onPage(p)}
      onRowsPerPageChange={(e) => {
        onRowsPerPage(Number(e.target.value));
        onPage(0);
      }}
      sx={WRAPPING_PAGER_SX}
      slotProps={{ select }}
    />
  );
}
