import { Stack, TableCell, TableRow, ToggleButton, ToggleButtonGroup } from '@mui/material';
import {
  IngestionTexts,
  Labels,
  PatientTexts,
  VITALS_PAGE_SIZE,
  VITALS_PAGE_SIZE_OPTIONS,
  bloodPressure,
  effectiveThresholds,
} from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { DataTable, LoadingState, QueryStates } from '../../components/table-states.tsx';
import { useTimezone } from '../../lib/timezone.ts';
import { AddReadingButton } from './add-reading-button.tsx';
import { useAlertMarks } from '../../api/alerts/alert-marks.ts';
import { usePatientThresholds } from '../../api/alerts/patient-thresholds.ts';
import { useVitalSeries } from '../../api/vitals/get-vital-series.ts';
import { useVitals } from '../../api/vitals/get-vitals.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { PagedList, PatientSection, usePaging } from './paged-section.tsx';
import { READING_TABLE_SX, ReadingLegend, ReadingTimeCell, rowStyle } from './reading-marks.tsx';
import { ReadingsDateFilter, useReadingsDates } from './readings-date-filter.tsx';
import { usePatientPrograms } from '../../api/programs/get-patient-programs.ts';

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
  const dates = useReadingsDates(timezone);
  const vitals = useVitals(patientId, paging.rows, paging.offset, dates.range);
  // The marks use the patient's effective thresholds (their own, else the organization's) and the
  // blood-pressure classifier the alert rules use: 135/85 is stage 2 here exactly as there.
  const patientThresholds = usePatientThresholds(patientId);
  const programs = usePatientPrograms(patientId).data?.programs ?? [];
  const thresholds = patientThresholds.data?.effective ?? effectiveThresholds(null, null, programs);
  // Without the patient's thresholds the marks would show the defaults' and then change.
  if (patientThresholds.isPending) return <Loading />;
  return (
    <>
      <ReadingsDateFilter dates={dates} onChange={() => paging.setPage(0)} />
      <PagedList
        query={vitals}
        paging={paging}
        options={VITALS_PAGE_SIZE_OPTIONS}
        errorFallback={PatientTexts.failedToLoadVitals}
        emptyText={dates.active ? PatientTexts.noVitalsInRange : PatientTexts.noVitals}
        loading={<Loading />}
      >
        {(items) => (
          <>
            <ReadingLegend kind={bloodPressure} thresholds={thresholds} />
            <DataTable label={PatientTexts.vitals} columns={vitalsColumns} contained={false} tableSx={READING_TABLE_SX}>
              {items.map((v, i) => {
                // A heart rate alone has no pressure to grade: the classifier answers normal.
                const values: Record<string, number> = {};
                if (v.systolic !== null) values.systolic = v.systolic;
                if (v.diastolic !== null) values.diastolic = v.diastolic;
                if (v.pulse !== null) values.pulse = v.pulse;
                const mark = bloodPressure.classify(values, { thresholds, programs });
                return (
                  <TableRow key={`${v.created_at}-${i}`} data-level={mark.level} sx={rowStyle(mark.level)}>
                    <ReadingTimeCell
                      time={formatTimestamp(v.created_at, timezone)}
                      level={mark.level}
                      label={mark.label}
                    />
                    <TableCell>{v.systolic ?? PatientTexts.noValue}</TableCell>
                    <TableCell>{v.diastolic ?? PatientTexts.noValue}</TableCell>
                    <TableCell>{v.pulse ?? Labels.notAvailable}</TableCell>
                    <TableCell>{v.source}</TableCell>
                  </TableRow>
                );
              })}
            </DataTable>
          </>
        )}
      </PagedList>
    </>
  );
}

function VitalsFigure({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const series = useVitalSeries(patientId);
  // Bands and marks are extras: the Figure draws without them while they load or if they fail.
  const thresholds = usePatientThresholds(patientId);
  const marks = useAlertMarks(patientId, 90);
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
          <VitalsChart
            series={data}
            timezone={timezone}
            thresholds={thresholds.data?.effective}
            alertTimes={marks.data?.t}
          />
        </Suspense>
      )}
    </QueryStates>
  );
}

/** Smaller than the page spinner: it sits inside a card on the patient page. */
const Loading = () => <LoadingState py={2} size={24} />;
