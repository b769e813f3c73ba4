import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Labels, NOTES_PAGE_SIZE, NOTES_PAGE_SIZE_OPTIONS, PatientTexts } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddNote, useNotes } from './api.ts';
import { formatInZone } from './format.ts';
import { Pager } from './paged-table.tsx';

export function NotesSection({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<number>(NOTES_PAGE_SIZE);
  const [open, setOpen] = useState(false);
  const notes = useNotes(patientId, rows, page * rows);

  return (
    <Box component="section" aria-labelledby="notes-heading">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="notes-heading" variant="h6" component="h2">
          {PatientTexts.clinicalNotes}
        </Typography>
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {Labels.addNote}
        </Button>
      </Stack>
      {notes.isPending ? null : notes.isError ? (
        <Alert severity="error">{errorMessage(notes.error, PatientTexts.failedToLoadNotes)}</Alert>
      ) : notes.data.total === 0 ? (
        <Typography color="text.secondary">{PatientTexts.noNotes}</Typography>
      ) : (
        <>
          <List dense aria-label={PatientTexts.clinicalNotes}>
            {notes.data.items.map((n) => (
              <ListItem key={n.id} divider>
                <ListItemText
                  primary={n.content}
                  secondary={formatInZone(n.created_at, timezone)}
                  slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap' } } }}
                />
              </ListItem>
            ))}
          </List>
          <Pager
            total={notes.data.total}
            page={page}
            rowsPerPage={rows}
            options={NOTES_PAGE_SIZE_OPTIONS}
            onPage={setPage}
            onRowsPerPage={setRows}
          />
        </>
      )}
      {open && <AddNoteDialog patientId={patientId} onClose={() => setOpen(false)} onAdded={() => setPage(0)} />}
    </Box>
  );
}

function AddNoteDialog({ patientId, onClose, onAdded }: { patientId: number; onClose: () => void; onAdded: () => void }) {
  const [content, setContent] = useState('');
  const add = useAddNote(patientId);
  const { enqueueSnackbar } = useSnackbar();

  const handleSave = async () => {
    try {
      await add.mutateAsync({ content });
      enqueueSnackbar(PatientTexts.noteAdded, { variant: 'success' });
      onAdded();
      onClose();
    } catch (err) {
      // The dialog stays open with the text, so nothing typed is lost.
      enqueueSnackbar(errorMessage(err, PatientTexts.noteFailed), { variant: 'error' });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{Labels.addNote}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          multiline
          minRows={4}
          fullWidth
          margin="dense"
          label={PatientTexts.noteContent}
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{PatientTexts.cancel}</Button>
        <Button variant="contained" onClick={() => void handleSave()} disabled={!content.trim() || add.isPending}>
          {Labels.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
