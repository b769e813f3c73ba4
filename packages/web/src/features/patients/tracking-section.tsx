import { Button, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import {
  Labels,
  PatientTexts,
  TRACKING_MAX_MINUTES,
  TRACKING_MIN_MINUTES,
  TRACKING_MINUTES_DEFAULT,
  UxTexts,
} from '@rpm/contracts';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { helperLine } from '../../components/helper-text.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { TRACKING_PAGE_SIZE, useAddTracking, useTrackingSessions } from './api.ts';
import { DataTable } from '../../components/table-states.tsx';
import { PagedList, PatientSection, SaveDialog, usePaging } from './paged-section.tsx';

export function TrackingSection({ patientId }: { patientId: number }) {
  const paging = usePaging(TRACKING_PAGE_SIZE);
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
      {sessions.data && sessions.data.month_totals.length > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="tracking-month-totals">
          <b>{PatientTexts.monthlyTotals}:</b>{' '}
          {sessions.data.month_totals.map((m) => `${m.month}: ${m.minutes} ${PatientTexts.minutesShort}`).join(' · ')}
        </Typography>
      )}
      {open && <AddTrackingDialog patientId={patientId} onClose={() => setOpen(false)} />}
    </PatientSection>
  );
}

/** Whole minutes within the range the form accepts, or the reason they are not. */
function minutesError(minutes: string): string | null {
  const n = Number(minutes);
  const ok = minutes.trim() !== '' && Number.isInteger(n) && n >= TRACKING_MIN_MINUTES && n <= TRACKING_MAX_MINUTES;
  return ok ? null : UxTexts.trackingMinutesRange;
}

function AddTrackingDialog({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const { timezone } = useTimezone();
  // "Today" is today in the zone the user works in.
  const [today] = useState(() => format(new TZDate(Date.now(), timezone), 'yyyy-MM-dd'));
  const [date, setDate] = useState(today);
  const initialMinutes = String(TRACKING_MINUTES_DEFAULT);
  const [minutes, setMinutes] = useState(initialMinutes);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<{ date?: string | null; minutes?: string | null }>({});
  const add = useAddTracking(patientId);
  const { enqueueSnackbar } = useSnackbar();

  const handleSave = async () => {
    // Save is never silently greyed out: a click on it says what still needs fixing.
    const found = { date: date ? null : UxTexts.trackingDateRequired, minutes: minutesError(minutes) };
    setErrors(found);
    if (found.date || found.minutes) return;
    try {
      await add.mutateAsync({ date, duration_minutes: Number(minutes), notes: notes.trim() ? notes : null });
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
      saveDisabled={add.isPending}
      dirty={notes.trim() !== '' || minutes !== initialMinutes || date !== today}
      discardTitle={UxTexts.discardTrackingTitle}
    >
      <Stack spacing={1} sx={{ mt: 1 }}>
        <TextField
          type="date"
          label={PatientTexts.date}
          value={date}
          onChange={(e) => setDate(e.target.value)}
          onBlur={() => setErrors((x) => ({ ...x, date: date ? null : UxTexts.trackingDateRequired }))}
          error={Boolean(errors.date)}
          helperText={helperLine(errors.date)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="number"
          label={PatientTexts.minutes}
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          onBlur={() => setErrors((x) => ({ ...x, minutes: minutesError(minutes) }))}
          error={Boolean(errors.minutes)}
          helperText={helperLine(errors.minutes)}
          slotProps={{ htmlInput: { min: TRACKING_MIN_MINUTES, max: TRACKING_MAX_MINUTES, step: 1 } }}
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
