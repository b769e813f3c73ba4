import { Box, Stack, Typography } from '@mui/material';
import { lazy, useState, type ComponentType, type ReactNode } from 'react';
import { LoadingState } from '../../components/loading-state.tsx';
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

/**
 * An add-record dialog whose code (the form library, MUI's dialog) loads when it is first wanted,
 * not with the patient page. `preload` starts the download as the pointer or focus reaches its
 * button, so it is usually there by the click.
 */
export function lazyDialog<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return { Dialog: lazy(load), preload: () => void load().catch(() => {}) };
}

/** Shown in the dialog's place while its code downloads: a status over the page. */
export function DialogLoading() {
  return (
    <Box
      sx={{ position: 'fixed', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', zIndex: (t) => t.zIndex.modal }}
    >
      <LoadingState />
    </Box>
  );
}
