import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { Labels, PatientTexts, UxTexts } from '@rpm/contracts';
import { useId, useState, type ReactNode } from 'react';
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
 * The add-record dialog: title, fields, then Cancel and Save. Typed clinical text is not thrown
 * away by a stray Escape, backdrop click or Cancel: while the dialog is `dirty` those ask first.
 */
export function SaveDialog({
  title,
  onClose,
  onSave,
  saveDisabled,
  dirty = false,
  discardTitle,
  children,
}: {
  title: string;
  onClose: () => void;
  onSave: () => Promise<void>;
  saveDisabled: boolean;
  /** Something has been typed that closing would lose. */
  dirty?: boolean;
  /** The question asked before losing it ("Discard this note?"). */
  discardTitle: string;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const requestClose = () => (dirty ? setConfirming(true) : onClose());
  return (
    <>
      <Dialog open onClose={requestClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={requestClose}>{PatientTexts.cancel}</Button>
          <Button variant="contained" onClick={() => void onSave()} disabled={saveDisabled}>
            {Labels.save}
          </Button>
        </DialogActions>
      </Dialog>
      <DiscardDialog
        open={confirming}
        title={discardTitle}
        onKeep={() => setConfirming(false)}
        onDiscard={() => {
          setConfirming(false);
          onClose();
        }}
      />
    </>
  );
}

/** "Discard this …?": Keep editing is the default, so Escape or Enter keeps the text. */
function DiscardDialog({
  open,
  title,
  onKeep,
  onDiscard,
}: {
  open: boolean;
  title: string;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog
      open={open}
      onClose={onKeep}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      maxWidth="xs"
      slotProps={{ paper: { role: 'alertdialog' } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{UxTexts.discardBody}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeep} autoFocus>
          {UxTexts.keepEditing}
        </Button>
        <Button color="error" onClick={onDiscard}>
          {UxTexts.discard}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
