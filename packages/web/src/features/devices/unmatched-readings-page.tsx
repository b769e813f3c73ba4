import { Box, Button, Checkbox, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import {
  IngestionTexts,
  PatientTexts,
  UNKNOWN_METRIC_KIND,
  UnmatchedTexts,
  formatValue,
  measurementKind,
  unitChoiceFor,
  type UnmatchedReading,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { useAttachUnmatchedReadings } from '../../api/unmatched-readings/attach-unmatched-readings.ts';
import { useUnmatchedReadings } from '../../api/unmatched-readings/get-unmatched-readings.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DataTable, PageHeader, QueryStates } from '../../components/table-states.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';

const COLUMNS = [
  UnmatchedTexts.select,
  'Device ID',
  PatientTexts.time,
  IngestionTexts.unmatchedKind,
  IngestionTexts.unmatchedValues,
];

/** The kind's label, or the vendor's name of a metric the portal does not know. */
function kindLabel(r: UnmatchedReading): string {
  if (r.kind === UNKNOWN_METRIC_KIND) return IngestionTexts.unknownMetric(r.metric ?? r.kind);
  return measurementKind(r.kind)?.label ?? r.kind;
}

/**
 * The values in the kind's order, each in its canonical unit with the unit's label (e.g.
 * "Systolic 128 mmHg, Diastolic 84 mmHg, Pulse 70 /min"); an unknown metric's values as sent.
 */
function valuesText(r: UnmatchedReading): string {
  const kind = r.kind === UNKNOWN_METRIC_KIND ? undefined : measurementKind(r.kind);
  if (!kind) {
    const parts = Object.entries(r.components).map(([code, value]) => `${code} ${value}`);
    return parts.length > 0 ? parts.join(', ') : PatientTexts.noValue;
  }
  const parts = kind.components.flatMap((c) => {
    const value = r.components[c.code];
    if (value === undefined) return [];
    const shown = formatValue(kind, c.code, value, c.ucum) ?? String(value);
    const unit = unitChoiceFor(kind, c.code, c.ucum)?.label ?? c.ucum;
    return [`${c.label} ${shown} ${unit}`];
  });
  return parts.length > 0 ? parts.join(', ') : PatientTexts.noValue;
}
const PATIENT_ID = /^[1-9]\d{0,9}$/;

/**
 * /devices/unmatched: readings no patient had the device for. Assigning the device attaches the
 * recent ones; older ones (from before the patient was created) an admin attaches here on purpose.
 */
export default function UnmatchedReadingsPage() {
  const unmatched = useUnmatchedReadings();
  const attach = useAttachUnmatchedReadings();
  const { timezone } = useTimezone();
  const { enqueueSnackbar } = useSnackbar();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [patientId, setPatientId] = useState('');
  const [confirming, setConfirming] = useState(false);

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const handleAttach = async () => {
    try {
      const result = await attach.mutateAsync({ reading_ids: [...selected], patient_id: Number(patientId) });
      enqueueSnackbar(UnmatchedTexts.attached(result.attached), { variant: 'success' });
      setSelected(new Set());
    } catch (err) {
      enqueueSnackbar(errorMessage(err, UnmatchedTexts.attachTitle), { variant: 'error' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Box>
      <PageHeader title={IngestionTexts.unmatchedTitle} />
      <QueryStates
        query={unmatched}
        errorFallback={IngestionTexts.unmatchedTitle}
        emptyText={IngestionTexts.noUnmatched}
        isEmpty={(page) => page.items.length === 0}
      >
        {(page) => (
          <>
            <Typography sx={{ mb: 1 }}>{IngestionTexts.unmatchedCount(page.total)}</Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
              <TextField
                label={UnmatchedTexts.patientId}
                value={patientId}
                onChange={(e) => setPatientId(e.target.value.trim())}
                size="small"
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <Button
                variant="contained"
                disabled={selected.size === 0 || !PATIENT_ID.test(patientId)}
                onClick={() => setConfirming(true)}
              >
                {UnmatchedTexts.attach}
              </Button>
            </Stack>
            <DataTable label={IngestionTexts.unmatchedTitle} columns={COLUMNS} stackOnPhone>
              {page.items.map((r) => {
                const time = formatTimestamp(r.measured_at, timezone);
                return (
                  <TableRow key={r.id} selected={selected.has(r.id)}>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={selected.has(r.id)}
                        onChange={() => toggle(r.id)}
                        slotProps={{ input: { 'aria-label': UnmatchedTexts.selectReading(r.device_id, time) } }}
                      />
                    </TableCell>
                    <TableCell>{r.device_id}</TableCell>
                    <TableCell>{time}</TableCell>
                    <TableCell>{kindLabel(r)}</TableCell>
                    <TableCell>{valuesText(r)}</TableCell>
                  </TableRow>
                );
              })}
            </DataTable>
          </>
        )}
      </QueryStates>
      <ConfirmDialog
        open={confirming}
        title={UnmatchedTexts.attachTitle}
        body={`${UnmatchedTexts.patientId} ${patientId}: ${UnmatchedTexts.attachConfirm(selected.size)}`}
        confirmLabel={UnmatchedTexts.attach}
        pending={attach.isPending}
        onConfirm={() => void handleAttach()}
        onCancel={() => setConfirming(false)}
      />
    </Box>
  );
}
