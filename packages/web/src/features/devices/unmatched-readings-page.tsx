import { Box, TableCell, TableRow, Typography } from '@mui/material';
import { IngestionTexts, Labels, PatientTexts } from '@rpm/contracts';
import { DataTable, PageHeader, QueryStates } from '../../components/table-states.tsx';
import { useTimezone } from '../../lib/timezone.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useUnmatchedReadings } from '../../api/unmatched-readings/get-unmatched-readings.ts';

const COLUMNS = ['Device ID', PatientTexts.time, PatientTexts.systolic, PatientTexts.diastolic, PatientTexts.pulse];

/** /devices/unmatched: readings no patient had the device for; assigning the device attaches them. */
export default function UnmatchedReadingsPage() {
  const unmatched = useUnmatchedReadings();
  const { timezone } = useTimezone();
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
            <DataTable label={IngestionTexts.unmatchedTitle} columns={COLUMNS}>
              {page.items.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{r.device_id}</TableCell>
                  <TableCell>{formatTimestamp(r.measured_at, timezone)}</TableCell>
                  <TableCell>{r.systolic}</TableCell>
                  <TableCell>{r.diastolic}</TableCell>
                  <TableCell>{r.pulse ?? Labels.notAvailable}</TableCell>
                </TableRow>
              ))}
            </DataTable>
          </>
        )}
      </QueryStates>
    </Box>
  );
}
