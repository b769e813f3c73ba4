import { Button, Stack, TableCell, TableRow, TextField } from '@mui/material';
import { Labels, PatientTexts, TRACKING_MINUTES_DEFAULT, TRACKING_MAX_MINUTES } from '@rpm/contracts';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddTracking, useTrackingSessions } from './api.ts';
import { DataTable } from '../../components/table-states.tsx';
import { PagedList, PatientSection, SaveDialog, usePaging } from './paged-section.tsx';

export function TrackingSection({ patientId }: { patientId: number }) {
  const paging = usePaging(10);
  const [open, setOpen] = useState(false);
  const sessions = useTrackingSessions(patientId, paging.rows, paging.offset);

  return (
    <PatientSection
      headingId="tracking-heading"
      title={Labels.trackingTime}
      action={
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {Labels.addTrackingTime}
        </Button>
      }
    >
      <PagedList
        query={sessions}
        paging={paging}
        options={[10, 20]}
        errorFallback={PatientTexts.failedToLoadTracking}
        emptyText={PatientTexts.noTracking}
      >
        {(items) => (
          <DataTable
            label={Labels.trackingTime}
            columns={[PatientTexts.date, PatientTexts.minutes, PatientTexts.notes]}
            contained={false}
          >
            {items.map((s) => (
              <TableRow key={s.id}>
                <TableCell>{s.date}</TableCell>
                <TableCell>{s.duration_minutes}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{s.notes ?? ''}</TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </PagedList>
      {open && <AddTrackingDialog patientId={patientId} onClose={() => setOpen(false)} />}
    </PatientSection>
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
  const minutesValid =
    minutes !== '' && Number.isInteger(minutesNumber) && minutesNumber >= 0 && minutesNumber <= TRACKING_MAX_MINUTES;

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
    <SaveDialog
      title={Labels.addTrackingTime}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={!date || !minutesValid || add.isPending}
    >
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
        <TextField
          label={PatientTexts.notes}
          multiline
          minRows={2}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
      </Stack>
    </SaveDialog>
  );
}
