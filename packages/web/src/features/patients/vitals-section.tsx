import { Stack, TableCell, TableRow, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { IngestionTexts, Labels, PatientTexts, VITALS_PAGE_SIZE, VITALS_PAGE_SIZE_OPTIONS } from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { DataTable, LoadingState, QueryStates } from '../../components/table-states.tsx';
import { useTimezone } from '../../lib/timezone.ts';
import { AddReadingButton } from './add-reading-dialog.tsx';
import { useVitals, useVitalSeries } from './api.ts';
import { formatInZone } from './format.ts';
import { PagedList, PatientSection, usePaging } from './paged-section.tsx';

// The chart module (uPlot and its CSS) is fetched the first time Figure is pressed.
const VitalsChart = lazy(() => import('./vitals-chart.tsx'));

export function VitalsSection({ patientId }: { patientId: number }) {
  const [view, setView] = useState<'table' | 'figure'>('table');
  return (
    <PatientSection
      headingId="vitals-heading"
      title={PatientTexts.vitals}
      action={
        <Stack direction="row" spacing={1} alignItems="center">
          <AddReadingButton patientId={patientId} />
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            onChange={(_e, v: 'table' | 'figure' | null) => v && setView(v)}
            aria-label={PatientTexts.vitals}
          >
            <ToggleButton value="table">{Labels.table}</ToggleButton>
            <ToggleButton value="figure">{Labels.figure}</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
      }
    >
      {view === 'table' ? <VitalsTable patientId={patientId} /> : <VitalsFigure patientId={patientId} />}
    </PatientSection>
  );
}

const vitalsColumns = [
  PatientTexts.time,
  PatientTexts.systolic,
  PatientTexts.diastolic,
  PatientTexts.pulse,
  IngestionTexts.source,
];

function VitalsTable({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const paging = usePaging(VITALS_PAGE_SIZE);
  const vitals = useVitals(patientId, paging.rows, paging.offset);
  return (
    <PagedList
      query={vitals}
      paging={paging}
      options={VITALS_PAGE_SIZE_OPTIONS}
      errorFallback={PatientTexts.failedToLoadVitals}
      emptyText={PatientTexts.noVitals}
      loading={<Loading />}
    >
      {(items) => (
        <DataTable label={PatientTexts.vitals} columns={vitalsColumns} contained={false}>
          {items.map((v, i) => (
            <TableRow key={`${v.created_at}-${i}`}>
              <TableCell>{formatInZone(v.created_at, timezone)}</TableCell>
              <TableCell>{v.systolic}</TableCell>
              <TableCell>{v.diastolic}</TableCell>
              <TableCell>{v.pulse ?? Labels.notAvailable}</TableCell>
              <TableCell>{v.source}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </PagedList>
  );
}

function VitalsFigure({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const series = useVitalSeries(patientId);
  return (
    <QueryStates
      query={series}
      errorFallback={PatientTexts.failedToLoadVitals}
      emptyText={PatientTexts.noVitals}
      isEmpty={(data) => data.t.length === 0}
      loading={<Loading />}
    >
      {(data) => (
        <Suspense fallback={<Loading />}>
          <VitalsChart series={data} timezone={timezone} />
        </Suspense>
      )}
    </QueryStates>
  );
}

/** Smaller than the page spinner: it sits inside a card on the patient page. */
const Loading = () => <LoadingState py={2} size={24} />;
