import { Button, TableCell, TableRow, Typography } from '@mui/material';
import {
  CareTimerTexts,
  ContactTypeLabels,
  Labels,
  PatientTexts,
  TRACKING_PAGE_SIZE,
  TrackingActivityLabels,
  type TrackingEntry,
} from '@rpm/contracts';
import { Suspense, useState } from 'react';
import { useTrackingEntries } from '../../api/tracking/get-tracking-entries.ts';
import { DataTable } from '../../components/table-states.tsx';
import { DialogLoading, PagedList, PatientSection, lazyDialog, usePaging } from './paged-section.tsx';

const AddTracking = lazyDialog(() => import('./add-tracking-dialog.tsx'));

export function TrackingSection({ patientId }: { patientId: number }) {
  const paging = usePaging(TRACKING_PAGE_SIZE);
  const [open, setOpen] = useState(false);
  const sessions = useTrackingEntries(patientId, paging.rows, paging.offset);

  return (
    <PatientSection
      headingId="tracking-heading"
      title={Labels.trackingTime}
      action={
        <Button variant="outlined" onClick={() => setOpen(true)} onPointerEnter={AddTracking.preload} onFocus={AddTracking.preload}>
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
            columns={[
              PatientTexts.date,
              PatientTexts.minutes,
              PatientTexts.notes,
              CareTimerTexts.activityColumn,
              CareTimerTexts.contactColumn,
            ]}
            contained={false}
          >
            {items.map((s) => (
              <TableRow key={s.id}>
                <TableCell>{s.date}</TableCell>
                <TableCell>{s.duration_minutes}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{s.notes ?? ''}</TableCell>
                <TableCell>{s.activity ? TrackingActivityLabels[s.activity] : ''}</TableCell>
                <TableCell>{contactText(s)}</TableCell>
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
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <AddTracking.Dialog patientId={patientId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </PatientSection>
  );
}

/** The live contact of an entry: its type, or yes for an interactive entry of no stated type. */
function contactText(s: TrackingEntry): string {
  if (s.contact_type) return ContactTypeLabels[s.contact_type];
  return s.interactive ? PatientTexts.yes : '';
}
