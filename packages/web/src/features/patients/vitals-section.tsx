import {
  Alert,
  Box,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { Labels, PatientTexts, VITALS_PAGE_SIZE, VITALS_PAGE_SIZE_OPTIONS } from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useVitals, useVitalSeries } from './api.ts';
import { formatInZone } from './format.ts';
import { Pager } from './paged-table.tsx';

// The chart module (uPlot and its CSS) is fetched the first time Figure is pressed.
const VitalsChart = lazy(() => import('./vitals-chart.tsx'));

export function VitalsSection({ patientId }: { patientId: number }) {
  const [view, setView] = useState<'table' | 'figure'>('table');
  return (
    <Box component="section" aria-labelledby="vitals-heading">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="vitals-heading" variant="h6" component="h2">
          {PatientTexts.vitals}
        </Typography>
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
      {view === 'table' ? <VitalsTable patientId={patientId} /> : <VitalsFigure patientId={patientId} />}
    </Box>
  );
}

function VitalsTable({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<number>(VITALS_PAGE_SIZE);
  const vitals = useVitals(patientId, rows, page * rows);
  if (vitals.isPending) return <Loading />;
  if (vitals.isError) return <Alert severity="error">{errorMessage(vitals.error, PatientTexts.failedToLoadVitals)}</Alert>;
  if (vitals.data.total === 0) return <Typography color="text.secondary">{PatientTexts.noVitals}</Typography>;
  return (
    <>
      <Table size="small" aria-label={PatientTexts.vitals}>
        <TableHead>
          <TableRow>
            <TableCell>{PatientTexts.time}</TableCell>
            <TableCell>{PatientTexts.systolic}</TableCell>
            <TableCell>{PatientTexts.diastolic}</TableCell>
            <TableCell>{PatientTexts.pulse}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {vitals.data.items.map((v, i) => (
            <TableRow key={`${v.created_at}-${i}`}>
              <TableCell>{formatInZone(v.created_at, timezone)}</TableCell>
              <TableCell>{v.systolic}</TableCell>
              <TableCell>{v.diastolic}</TableCell>
              <TableCell>{v.pulse ?? Labels.notAvailable}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Pager
        total={vitals.data.total}
        page={page}
        rowsPerPage={rows}
        options={VITALS_PAGE_SIZE_OPTIONS}
        onPage={setPage}
        onRowsPerPage={setRows}
      />
    </>
  );
}

function VitalsFigure({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const series = useVitalSeries(patientId);
  if (series.isPending) return <Loading />;
  if (series.isError) return <Alert severity="error">{errorMessage(series.error, PatientTexts.failedToLoadVitals)}</Alert>;
  if (series.data.t.length === 0) return <Typography color="text.secondary">{PatientTexts.noVitals}</Typography>;
  return (
    <Suspense fallback={<Loading />}>
      <VitalsChart series={series.data} timezone={timezone} />
    </Suspense>
  );
}

function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }} role="status" aria-label="Loading">
      <CircularProgress size={24} />
    </Box>
  );
}
