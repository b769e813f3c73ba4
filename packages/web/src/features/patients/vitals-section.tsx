import ReportIcon from '@mui/icons-material/Report';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import {
  Box,
  Stack,
  TableCell,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  alpha,
  type Theme,
} from '@mui/material';
import {
  IngestionTexts,
  Labels,
  PatientTexts,
  VITALS_PAGE_SIZE,
  VITALS_PAGE_SIZE_OPTIONS,
  readingLevel,
  type ReadingLevel,
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
        <>
          <ReadingLegend />
          <DataTable label={PatientTexts.vitals} columns={vitalsColumns} contained={false}>
            {items.map((v, i) => {
              // A heart rate alone has no pressure to grade.
              const level =
                v.systolic !== null && v.diastolic !== null ? readingLevel(v.systolic, v.diastolic) : 'normal';
              return (
                <TableRow key={`${v.created_at}-${i}`} data-level={level} sx={rowStyle(level)}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <span>{formatTimestamp(v.created_at, timezone)}</span>
                    {level !== 'normal' && <LevelMark level={level} />}
                  </TableCell>
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

/** A tinted row, never colour alone: the time cell also carries an icon and the word. */
function rowStyle(level: ReadingLevel) {
  if (level === 'normal') return undefined;
  return (theme: Theme) => ({
    backgroundColor: alpha(
      level === 'critical' ? theme.palette.error.main : theme.palette.warning.main,
      level === 'critical' ? 0.16 : 0.1,
    ),
    '& td': level === 'critical' ? { fontWeight: 700 } : {},
  });
}

const LEVELS = {
  high: {
    Icon: WarningAmberIcon,
    label: PatientTexts.readingHigh,
    rule: PatientTexts.readingHighRule,
    color: 'warning.dark',
  },
  critical: {
    Icon: ReportIcon,
    label: PatientTexts.readingCritical,
    rule: PatientTexts.readingCriticalRule,
    color: 'error.main',
  },
} as const;

function LevelMark({ level }: { level: Exclude<ReadingLevel, 'normal'> }) {
  const { Icon, label, color } = LEVELS[level];
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: 1, verticalAlign: 'middle' }}
    >
      <Icon fontSize="small" sx={{ color }} aria-hidden />
      <Typography component="span" variant="body2" sx={{ fontWeight: 700 }}>
        {label}
      </Typography>
    </Box>
  );
}

/** What the marks mean, above the table. */
function ReadingLegend() {
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}
      aria-label={PatientTexts.readingLegend}
      role="note"
    >
      <Typography variant="body2" color="text.secondary">
        {PatientTexts.readingLegend}:
      </Typography>
      {(['high', 'critical'] as const).map((level) => {
        const { Icon, label, rule, color } = LEVELS[level];
        return (
          <Box key={level} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            <Icon fontSize="small" sx={{ color }} aria-hidden />
            <Typography component="span" variant="body2">
              <b>{label}</b> {rule}
            </Typography>
          </Box>
        );
      })}
    </Stack>
  );
}

/** Smaller than the page spinner: it sits inside a card on the patient page. */
const Loading = () => <LoadingState py={2} size={24} />;
