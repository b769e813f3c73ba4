import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { Labels, PatientTexts } from '@rpm/contracts';
import { useState, type ReactNode } from 'react';
import { QueryStates, type QueryLike } from '../../components/table-states.tsx';
import { Pager } from './paged-table.tsx';

/** Page and page size of a server-paged list; `offset` is what the API wants. */
export function usePaging(initialRows: number) {
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState(initialRows);
  return { page, setPage, rows, setRows, offset: page * rows };
}

type Paging = ReturnType<typeof usePaging>;

/** A titled section of the patient page; `headingId` names the section for assistive technology. */
export function PatientSection({
  headingId,
  title,
  action,
  children,
}: {
  headingId: string;
  title: string;
  /** Shown at the right of the heading (an "Add …" button, a view toggle). */
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Box>
  );
}

/** One server page of a patient's records with its pager, or the error / empty text instead. */
export function PagedList<T>({
  query,
  paging,
  options,
  errorFallback,
  emptyText,
  loading = null,
  children,
}: {
  query: QueryLike<{ items: T[]; total: number }>;
  paging: Paging;
  options: readonly number[];
  errorFallback: string;
  emptyText: string;
  loading?: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <QueryStates
      query={query}
      errorFallback={errorFallback}
      emptyText={emptyText}
      isEmpty={(data) => data.total === 0}
      loading={loading}
    >
      {(data) => (
        <>
          {children(data.items)}
          <Pager
            total={data.total}
            page={paging.page}
            rowsPerPage={paging.rows}
            options={options}
            onPage={paging.setPage}
            onRowsPerPage={paging.setRows}
          />
        </>
      )}
    </QueryStates>
  );
}

/** The add-record dialog: title, fields, then Cancel and Save. */
export function SaveDialog({
  title,
  onClose,
  onSave,
  saveDisabled,
  children,
}: {
  title: string;
  onClose: () => void;
  onSave: () => Promise<void>;
  saveDisabled: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{PatientTexts.cancel}</Button>
        <Button variant="contained" onClick={() => void onSave()} disabled={saveDisabled}>
          {Labels.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
