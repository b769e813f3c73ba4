import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Labels, PatientTexts, TRACKING_MINUTES_DEFAULT, TRACKING_MAX_MINUTES } from '@rpm/contracts';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddTracking, useTrackingSessions } from './api.ts';
import { Pager } from './paged-table.tsx';

export function TrackingSection({ patientId }: { patientId: number }) {
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState(10);
  const [open, setOpen] = useState(false);
  const sessions = useTrackingSessions(patientId, rows, page * rows);

  return (
    <Box component="section" aria-labelledby="tracking-heading">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="tracking-heading" variant="h6" component="h2">
          {Labels.trackingTime}
        </Typography>
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {Labels.addTrackingTime}
        </Button>
      </Stack>
      {sessions.isPending ? null : sessions.isError ? (
        <Alert severity="error">{errorMessage(sessions.error, PatientTexts.failedToLoadTracking)}</Alert>
      ) : sessions.data.total === 0 ? (
        <Typography color="text.secondary">{PatientTexts.noTracking}</Typography>
      ) : (
        <>
          <Table size="small" aria-label={Labels.trackingTime}>
            <TableHead>
              <TableRow>
                <TableCell>{PatientTexts.date}</TableCell>
                <TableCell>{PatientTexts.minutes}</TableCell>
                <TableCell>{PatientTexts.notes}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sessions.data.items.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.date}</TableCell>
                  <TableCell>{s.duration_minutes}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{s.notes ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager
            total={sessions.data.total}
            page={page}
            rowsPerPage={rows}
            options={[10, 20]}
            onPage={setPage}
            onRowsPerPage={setRows}
          />
        </>
      )}
      {open && <AddTrackingDialog patientId={patientId} onClose={() => setOpen(false)} />}
    </Box>
  );
}

function AddTrackingDialog({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const { timezone } = useTimezone();
  // "Today" is today in the zone the user works in.
  const [date, setDate] = useState(() => format(new TZDate(Date.now(), timezone), 'yyyy-MM-dd'));
  const [minutes, setMinutes] = useState(String(TRACKING_MINUTES_DEFAULT));
  const [notes, setNotes] = useState('');
  const add = useAddTracking(patientId);
  const { enqueueSnackbar } = useSnackbar();
  const minutesNumber = Number(minutes);
  const minutesValid = minutes !== '' && Number.isInteger(minutesNumber) && minutesNumber >= 0 && minutesNumber <= TRACKING_MAX_MINUTES;

  const handleSave = async () => {
    try {
      await add.mutateAsync({ date, duration_minutes: minutesNumber, notes: notes.trim() ? notes : null });
      enqueueSnackbar(PatientTexts.trackingAdded, { variant: 'success' });
      onClose();
    } catch (err) {
      enqueueSnackbar(errorMessage(err, PatientTexts.trackingFailed), { variant: 'error' });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{Labels.addTrackingTime}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            type="date"
            label={PatientTexts.date}
            value={date}
            onChange={(e) => setDate(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="number"
            label={PatientTexts.minutes}
            value={minutes}
            error={!minutesValid}
            onChange={(e) => setMinutes(e.target.value)}
            slotProps={{ htmlInput: { min: 0, max: TRACKING_MAX_MINUTES, step: 1 } }}
          />
          <TextField label={PatientTexts.notes} multiline minRows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{PatientTexts.cancel}</Button>
        <Button variant="contained" onClick={() => void handleSave()} disabled={!date || !minutesValid || add.isPending}>
          {Labels.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
