import { Box, Button, Checkbox, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { IngestionTexts, Labels, PatientTexts, UnmatchedTexts } from '@rpm/contracts';
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
  PatientTexts.systolic,
  PatientTexts.diastolic,
  PatientTexts.pulse,
];
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
            <DataTable label={IngestionTexts.unmatchedTitle} columns={COLUMNS}>
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
                    <TableCell>{r.systolic ?? PatientTexts.noValue}</TableCell>
                    <TableCell>{r.diastolic ?? PatientTexts.noValue}</TableCell>
                    <TableCell>{r.pulse ?? Labels.notAvailable}</TableCell>
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
