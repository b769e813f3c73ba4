import { Box, Paper, Stack, TableCell, TableRow, Typography } from '@mui/material';
import {
  ObservationTexts,
  VITALS_PAGE_SIZE,
  VITALS_PAGE_SIZE_OPTIONS,
  bloodPressure,
  effectiveThresholds,
  formatValue,
  type DisplayUnits,
  type MeasurementKind,
  type Observation,
  type ThresholdValues,
} from '@rpm/contracts';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { usePatientThresholds } from '../../api/alerts/patient-thresholds.ts';
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
import { READING_TABLE_SX, ReadingLegend, ReadingTimeCell, rowStyle } from './reading-marks.tsx';

// uPlot and its CSS are fetched when the first panel shows, not with the patient page: beside the
// panel's readings rather than after them (asked for once the readings had come, the chart's code
// was the page's last wave of downloads and renders).
const loadChart = () => import('./measurement-chart.tsx');
const MeasurementChart = lazy(loadChart);

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
  // The marks, legends and bands use the numbers that apply to this patient (their own, else the
  // organization's, programs included); the server works them out, so the page never guesses.
  const patientThresholds = usePatientThresholds(patientId);
  const thresholds = patientThresholds.data?.effective;
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
          // Without the patient's thresholds the marks would show the defaults' and then change.
          if (patientThresholds.isPending) return <Loading />;
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
                    thresholds={thresholds}
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
  /** The patient's effective thresholds; undefined when they failed to load (the defaults apply). */
  thresholds: ThresholdValues | undefined;
}

function MeasurementPanel({ patientId, kind, latest, displayUnits, programs, thresholds }: PanelProps) {
  const { timezone } = useTimezone();
  const headingId = `measurement-${kind.kind}-heading`;
  useEffect(() => {
    loadChart().catch(() => {});
  }, []);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: 2, minWidth: 0 }}
      data-kind={kind.kind}
    >
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
          <KindChart
            patientId={patientId}
            kind={kind}
            displayUnits={displayUnits}
            thresholds={thresholds}
            programs={programs}
          />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <KindTable
            patientId={patientId}
            kind={kind}
            displayUnits={displayUnits}
            programs={programs}
            thresholds={thresholds}
          />
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

function KindChart({ patientId, kind, displayUnits, thresholds, programs }: Omit<PanelProps, 'latest'>) {
  const { timezone } = useTimezone();
  const series = useObservationSeries(patientId, kind.kind);
  const chart = useMemo(() => {
    const items = series.data ?? [];
    return {
      t: items.map((o) => Math.floor(new Date(o.created_at).getTime() / 1000)),
      lines: kind.components
        .map((c) => ({
          label: `${c.label} (${componentUnit(kind, c.code, displayUnits)?.label ?? c.ucum})`,
          values: items.map((o) => displayNumber(kind, c.code, o.components[c.code], displayUnits)),
        }))
        .filter((line) => line.values.some((v) => v !== null)),
    };
  }, [series.data, kind, displayUnits]);
  // The classifier's bands of the primary component, in the chart's (display) unit.
  const bands = useMemo(() => {
    const t = thresholds ?? effectiveThresholds(null, null, programs);
    const shown = (v: number | null) => (v === null ? null : displayNumber(kind, kind.primary, v, displayUnits));
    return (kind.bands?.(t) ?? [])
      .filter((b) => b.component === kind.primary)
      .map((b) => ({ level: b.level, from: shown(b.from), to: shown(b.to) }));
  }, [kind, thresholds, programs, displayUnits]);
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
            bands={bands}
          />
        </Suspense>
      )}
    </QueryStates>
  );
}

function KindTable({ patientId, kind, displayUnits, programs, thresholds }: Omit<PanelProps, 'latest'>) {
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
        <>
          <ReadingLegend kind={kind} thresholds={thresholds ?? effectiveThresholds(null, null, programs)} />
          <DataTable label={kind.label} columns={columns} contained={false} tableSx={READING_TABLE_SX}>
            {items.map((o) => {
              const mark = kind.classify(o.components, { thresholds, programs });
              return (
                <TableRow key={o.id} data-level={mark.level} sx={rowStyle(mark.level)}>
                  <ReadingTimeCell
                    time={formatTimestamp(o.created_at, timezone)}
                    level={mark.level}
                    label={mark.label}
                  />
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
        </>
      )}
    </PagedList>
  );
}

/** Smaller than the page spinner: it sits inside a card on the patient page. */
const Loading = () => <LoadingState py={2} size={24} />;
