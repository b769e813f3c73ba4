import {
  Alert,
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  type SxProps,
  type TableCellProps,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../api/errors.ts';
import { LoadingState } from './loading-state.tsx';
import { VISUALLY_HIDDEN } from './visually-hidden.ts';

export { LoadingState };

/** The parts of a react-query result the states below look at. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
}

interface QueryStatesProps<T> {
  query: QueryLike<T>;
  /** Shown when the answer carries no message of its own. */
  errorFallback: string;
  /** Text shown instead of `children` when `isEmpty(data)` says there is nothing to list. */
  emptyText?: string;
  isEmpty?: (data: T) => boolean;
  /** What stands in while loading; the spinner unless a page wants something else (or nothing). */
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * The loading / error / empty / loaded switch every list shows. An error wins over data kept
 * from an earlier answer, so a failed refresh is never hidden behind stale rows.
 */
export function QueryStates<T>({
  query,
  errorFallback,
  emptyText,
  isEmpty,
  loading = <LoadingState />,
  children,
}: QueryStatesProps<T>) {
  if (query.isPending) return <>{loading}</>;
  if (query.isError) return <Alert severity="error">{errorMessage(query.error, errorFallback)}</Alert>;
  if (query.data === undefined) return <>{loading}</>;
  if (isEmpty?.(query.data)) return <Typography color="text.secondary">{emptyText}</Typography>;
  return <>{children(query.data)}</>;
}

/** QueryStates for a plain list: `emptyText` when the list has no entries. */
export function ListStates<T>(props: Omit<QueryStatesProps<T[]>, 'isEmpty'> & { emptyText: string }) {
  return <QueryStates {...props} isEmpty={(list) => list.length === 0} />;
}

/** A column heading: its text, or its text with an alignment. */
export type ColumnSpec = string | { label: string; align: TableCellProps['align'] };

interface DataTableProps {
  /** The table's accessible name. */
  label: string;
  columns: readonly ColumnSpec[];
  /** The body rows. */
  children: ReactNode;
  /** Wrap the table in a Paper container (page-level lists) or not (sections inside a card). */
  contained?: boolean;
  containerSx?: SxProps<Theme>;
  /** Rules for the table's cells, set once on the table rather than on each cell (a cell's own
   * sx is styled again for every row, on every render). */
  tableSx?: SxProps<Theme>;
  /** On a phone, each row is drawn as a block of "column: value" lines instead of a wide row
   * (admin lists whose last columns, their actions among them, were off the screen). */
  stackOnPhone?: boolean;
}

// On a phone a cell's 16 px sides, ten of them in a five-column row, were what pushed the last
// columns out of view.
const PHONE_CELLS: SxProps<Theme> = { '& th, & td': { px: { xs: 0.75, sm: 2 } } };

/** A CSS string holding `text` (column labels are plain words: quotes and backslashes escaped). */
const cssString = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;

/**
 * A phone's view of a table: every row a block, every cell a line led by its column's label. The
 * heading row is hidden from the eye only, so that screen readers still name each cell by it, and
 * the labels drawn before the cells carry empty alternative text (`content: "…" / ""`) where the
 * browser knows that syntax, so that they are not read a second time. Empty cells are left out.
 */
export function stackedOnPhone(columns: readonly ColumnSpec[]): SxProps<Theme> {
  const labels: Record<string, { content: string }> = {};
  const silentLabels: Record<string, { content: string }> = {};
  columns.forEach((c, i) => {
    const text = typeof c === 'string' ? c : c.label;
    if (!text) return;
    const selector = `& td:nth-of-type(${i + 1})::before`;
    labels[selector] = { content: cssString(`${text}: `) };
    silentLabels[selector] = { content: `${cssString(`${text}: `)} / ""` };
  });
  return (theme) => ({
    [theme.breakpoints.down('sm')]: {
      display: 'block',
      '& thead': VISUALLY_HIDDEN,
      '& tbody, & tr, & td': { display: 'block' },
      '& tr': { py: 1, borderBottom: `1px solid ${theme.palette.divider}` },
      '& tr:last-of-type': { borderBottom: 0 },
      // With the cell's class: MUI sizes a small checkbox cell by a rule of two classes.
      '& td.MuiTableCell-root': {
        borderBottom: 0,
        py: 0.25,
        px: 1.5,
        width: 'auto',
        textAlign: 'left',
        // A line may wrap even where a wide row kept a cell on one line (a SMART client's id).
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
      },
      // A full-size target for a finger (MUI's small checkbox cell takes its padding away).
      '& td.MuiTableCell-root > .MuiCheckbox-root': { p: 1 },
      // A cell with nothing in it, or only an empty group (a row that offers no action).
      '& td:empty, & td:has(> :only-child:empty)': { display: 'none' },
      '& td::before': { fontWeight: 600, color: theme.palette.text.secondary },
      ...labels,
      '@supports (content: "a" / "")': silentLabels,
    },
  });
}

/** A small MUI table with one heading row. */
export function DataTable({
  label,
  columns,
  children,
  contained = true,
  containerSx,
  tableSx,
  stackOnPhone = false,
}: DataTableProps) {
  const sx = [PHONE_CELLS, stackOnPhone ? stackedOnPhone(columns) : {}, tableSx ?? {}].flat();
  const table = (
    <Table size="small" aria-label={label} sx={sx}>
      <TableHead>
        <TableRow>
          {columns.map((c) =>
            typeof c === 'string' ? (
              <TableCell key={c}>{c}</TableCell>
            ) : (
              <TableCell key={c.label} align={c.align}>
                {c.label}
              </TableCell>
            ),
          )}
        </TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
  // Inside a card the table scrolls sideways on its own rather than widening the page.
  if (!contained) return <TableContainer>{table}</TableContainer>;
  return (
    <TableContainer component={Paper} sx={containerSx}>
      {table}
    </TableContainer>
  );
}

/** A page's h1 title, with an optional link button (e.g. "Add …") at the right. */
export function PageHeader({ title, action }: { title: string; action?: { label: string; to: string } }) {
  if (!action) {
    return (
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
    );
  }
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Button variant="contained" component={RouterLink} to={action.to}>
        {action.label}
      </Button>
    </Stack>
  );
}
