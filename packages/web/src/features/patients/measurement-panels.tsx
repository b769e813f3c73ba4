import ReportIcon from '@mui/icons-material/Report';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Paper, Stack, TableCell, TableRow, Typography, alpha, type Theme } from '@mui/material';
import {
  ObservationTexts,
  VITALS_PAGE_SIZE,
  VITALS_PAGE_SIZE_OPTIONS,
  bloodPressure,
  formatValue,
  type DisplayUnits,
  type MeasurementKind,
  type MeasurementLevel,
  type Observation,
} from '@rpm/contracts';
import { lazy, Suspense, useMemo } from 'react';
import { useDisplayUnits } from '../../api/organizations/get-display-units.ts';
import { useObservationSeries } from '../../api/observations/get-observation-series.ts';
import { useObservationSummary } from '../../api/observations/get-observation-summary.ts';
import { useObservations } from '../../api/observations/get-observations.ts';
import { usePatientPrograms } from '../../api/programs/get-patient-programs.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';
import { DataTable, LoadingState, QueryStates } from '../../components/table-states.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { AddObservationButton } from './add-observation-button.tsx';
import { componentUnit, displayNumber, panelKinds, showValue } from './measurement-units.ts';
import { PagedList, PatientSection, usePaging } from './paged-section.tsx';

// uPlot and its CSS are fetched when the first chart draws, not with the patient page.
const MeasurementChart = lazy(() => import('./measurement-chart.tsx'));

/** Blood pressure keeps the spec's Vitals section above; the panels show every other kind. */
const SHOWN_BY_VITALS = bloodPressure.kind;

/**
 * The patient's measurements beside blood pressure: one panel per kind the patient has, the
 * kinds of the patient's programs first. Values are shown in the organization's display units.
 */
export function MeasurementPanels({ patientId, organizationId }: { patientId: number; organizationId: number | null }) {
  const summary = useObservationSummary(patientId);
  const patientPrograms = usePatientPrograms(patientId);
  const programs = usePrograms();
  const units = useDisplayUnits(organizationId);
  const enrolled = useMemo(() => patientPrograms.data?.programs ?? [], [patientPrograms.data]);
  return (
    <PatientSection
      headingId="measurements-heading"
      title={ObservationTexts.measurements}
      action={<AddObservationButton patientId={patientId} displayUnits={units.data?.display_units} />}
    >
      <QueryStates
        query={summary}
        errorFallback={ObservationTexts.failedToLoadMeasurements}
        emptyText={ObservationTexts.noMeasurements}
        isEmpty={(data) => data.kinds.every((k) => k.kind === SHOWN_BY_VITALS || k.total === 0)}
        loading={<Loading />}
      >
        {(data) => {
          const has = data.kinds.filter((k) => k.kind !== SHOWN_BY_VITALS && k.total > 0);
          const programKinds = (id: string) => programs.data?.items.find((p) => p.id === id)?.kinds;
          const kinds = panelKinds(
            has.map((k) => k.kind),
            enrolled,
            programs.data ? programKinds : undefined,
          );
          return (
            <Stack spacing={2}>
              {kinds.map((kind) => {
                const entry = has.find((k) => k.kind === kind.kind)!;
                return (
                  <MeasurementPanel
                    key={kind.kind}
                    patientId={patientId}
                    kind={kind}
                    latest={entry.latest}
                    displayUnits={units.data?.display_units}
                    programs={enrolled}
                  />
                );
              })}
            </Stack>
          );
        }}
      </QueryStates>
    </PatientSection>
  );
}

interface PanelProps {
  patientId: number;
  kind: MeasurementKind;
  latest: Observation | null;
  displayUnits: DisplayUnits | undefined;
  programs: readonly string[];
}

function MeasurementPanel({ patientId, kind, latest, displayUnits, programs }: PanelProps) {
  const { timezone } = useTimezone();
  const headingId = `measurement-${kind.kind}-heading`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, minWidth: 0 }} data-kind={kind.kind}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {kind.label}
        </Typography>
        <AddObservationButton patientId={patientId} kind={kind.kind} displayUnits={displayUnits} />
      </Stack>
      {latest && (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="measurement-latest">
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {ObservationTexts.latest}:{' '}
          </Box>
          <Box component="span" sx={{ fontWeight: 700, fontSize: '1.1rem' }}>
            {valuesText(kind, latest, displayUnits)}
          </Box>{' '}
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {formatTimestamp(latest.created_at, timezone)}
          </Box>
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2, alignItems: 'start' }}>
        <Box sx={{ minWidth: 0 }}>
          <KindChart patientId={patientId} kind={kind} displayUnits={displayUnits} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <KindTable patientId={patientId} kind={kind} displayUnits={displayUnits} programs={programs} />
        </Box>
      </Box>
    </Paper>
  );
}

/** Every component of a reading in its display unit, e.g. "96 % · Pulse 72 /min". */
function valuesText(kind: MeasurementKind, o: Observation, units: DisplayUnits | undefined): string {
  return kind.components
    .flatMap((c) => {
      const text = showValue(kind, c.code, o.components[c.code], units);
      if (text === null) return [];
      return [c.code === kind.primary || kind.components.length === 1 ? text : `${c.label} ${text}`];
    })
    .join(' · ');
}

function KindChart({ patientId, kind, displayUnits }: Omit<PanelProps, 'latest' | 'programs'>) {
  const { timezone } = useTimezone();
  const series = useObservationSeries(patientId, kind.kind);
  const chart = useMemo(() => {
    const items = series.data ?? [];
    return {
      t: items.map((o) => Math.floor(new Date(o.created_at).getTime() / 1000)),
      lines: kind.components.map((c) => ({
        label: `${c.label} (${componentUnit(kind, c.code, displayUnits)?.label ?? c.ucum})`,
        values: items.map((o) => displayNumber(kind, c.code, o.components[c.code], displayUnits)),
      })).filter((line) => line.values.some((v) => v !== null)),
    };
  }, [series.data, kind, displayUnits]);
  return (
    <QueryStates
      query={series}
      errorFallback={ObservationTexts.failedToLoad(kind.label)}
      emptyText={ObservationTexts.chartEmpty}
      isEmpty={(items) => items.length === 0}
      loading={<Loading />}
    >
      {() => (
        <Suspense fallback={<Loading />}>
          <MeasurementChart
            t={chart.t}
            lines={chart.lines}
            unit={componentUnit(kind, kind.primary, displayUnits)?.label ?? ''}
            timezone={timezone}
            label={ObservationTexts.chartLabel(kind.label)}
          />
        </Suspense>
      )}
    </QueryStates>
  );
}

function KindTable({ patientId, kind, displayUnits, programs }: Omit<PanelProps, 'latest'>) {
  const { timezone } = useTimezone();
  const paging = usePaging(VITALS_PAGE_SIZE);
  const page = useObservations(patientId, kind.kind, paging.rows, paging.offset);
  const columns = [
    ObservationTexts.time,
    ...kind.components.map((c) => `${c.label} (${componentUnit(kind, c.code, displayUnits)?.label ?? c.ucum})`),
    ObservationTexts.source,
  ];
  return (
    <PagedList
      query={page}
      paging={paging}
      options={VITALS_PAGE_SIZE_OPTIONS}
      errorFallback={ObservationTexts.failedToLoad(kind.label)}
      emptyText={ObservationTexts.noReadingsOfKind(kind.label)}
      loading={<Loading />}
    >
      {(items) => (
        <DataTable label={kind.label} columns={columns} contained={false}>
          {items.map((o) => {
            const mark = kind.classify(o.components, { programs });
            return (
              <TableRow key={o.id} data-level={mark.level} sx={rowStyle(mark.level)}>
                <TableCell sx={{ minWidth: 140 }}>
                  <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                    {formatTimestamp(o.created_at, timezone)}
                  </Box>
                  {mark.level !== 'normal' && <LevelMark level={mark.level} label={mark.label} />}
                </TableCell>
                {kind.components.map((c) => {
                  const value = o.components[c.code];
                  const unit = componentUnit(kind, c.code, displayUnits);
                  const text = value === undefined || !unit ? undefined : formatValue(kind, c.code, value, unit.ucum);
                  return <TableCell key={c.code}>{text ?? ObservationTexts.noValue}</TableCell>;
                })}
                <TableCell>{o.source}</TableCell>
              </TableRow>
            );
          })}
        </DataTable>
      )}
    </PagedList>
  );
}

/** A tinted row, never colour alone: the time cell also carries an icon and the words. */
function rowStyle(level: MeasurementLevel) {
  if (level === 'normal') return undefined;
  return (theme: Theme) => ({
    backgroundColor: alpha(
      level === 'critical' ? theme.palette.error.main : theme.palette.warning.main,
      level === 'critical' ? 0.16 : 0.1,
    ),
    '& td': level === 'critical' ? { fontWeight: 700 } : {},
  });
}

function LevelMark({ level, label }: { level: Exclude<MeasurementLevel, 'normal'>; label: string }) {
  const Icon = level === 'critical' ? ReportIcon : WarningAmberIcon;
  return (
    // Below the time, so that on a phone the mark's words do not push the values out of view.
    <Box component="span" sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mt: 0.5 }}>
      <Icon fontSize="small" sx={{ color: level === 'critical' ? 'error.main' : 'warning.dark' }} aria-hidden />
      <Typography component="span" variant="body2" sx={{ fontWeight: 700 }}>
        {label || ObservationTexts.levels[level]}
      </Typography>
    </Box>
  );
}

/** Smaller than the page spinner: it sits inside a card on the patient page. */
const Loading = () => <LoadingState py={2} size={24} />;
