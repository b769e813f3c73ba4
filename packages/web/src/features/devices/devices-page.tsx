import { Box, Chip, Link, TableCell, TableRow } from '@mui/material';
import { AdminTexts, DevicesTableColumns, IngestionTexts, deviceTypeLabel, type Device } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths.ts';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { useDevices } from '../../api/devices/get-devices.ts';
import { useUnmatchedReadings } from '../../api/unmatched-readings/get-unmatched-readings.ts';

/** "Assigned to": the patient's name with their date of birth (spec section 2). */
export function assignedTo(d: Device): string {
  if (!d.patient) return AdminTexts.unassigned;
  const name = `${d.patient.first_name} ${d.patient.last_name}`.trim();
  return d.patient.date_of_birth ? `${name} (${d.patient.date_of_birth})` : name;
}

/** /devices: every device and the patient it is assigned to. */
export default function DevicesPage() {
  const devices = useDevices();
  const unmatched = useUnmatchedReadings();
  const unmatchedTotal = unmatched.data?.total ?? 0;
  return (
    <Box>
      <PageHeader title={AdminTexts.devicesTitle} action={{ label: AdminTexts.addDeviceTitle, to: paths.deviceAdd }} />
      {unmatchedTotal > 0 && (
        <Link component={RouterLink} to={paths.unmatchedReadings} sx={{ display: 'inline-block', mb: 1 }}>
          {IngestionTexts.unmatchedCount(unmatchedTotal)}
        </Link>
      )}
      <ListStates query={devices} errorFallback={AdminTexts.failedToLoadDevices} emptyText={AdminTexts.noDevices}>
        {(list) => (
          <DataTable label={AdminTexts.devicesTitle} columns={DevicesTableColumns}>
            {list.map((d) => (
              <TableRow key={d.id} hover>
                <TableCell>
                  {d.device_id}
                  {d.battery_level != null && (
                    <Chip
                      size="small"
                      variant="outlined"
                      sx={{ ml: 1 }}
                      label={`${IngestionTexts.battery} ${d.battery_level}%`}
                    />
                  )}
                </TableCell>
                <TableCell>{d.model ?? ''}</TableCell>
                <TableCell>{d.type ? deviceTypeLabel(d.type) : ''}</TableCell>
                <TableCell>{assignedTo(d)}</TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </ListStates>
    </Box>
  );
}
