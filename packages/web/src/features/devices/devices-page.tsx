import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { AdminTexts, DevicesTableColumns, type Device } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useDevices } from './api.ts';

/** "Assigned to": the patient's name with their date of birth (spec section 2). */
export function assignedTo(d: Device): string {
  if (!d.patient) return AdminTexts.unassigned;
  const name = `${d.patient.first_name} ${d.patient.last_name}`.trim();
  return d.patient.date_of_birth ? `${name} (${d.patient.date_of_birth})` : name;
}

/** /devices: every device and the patient it is assigned to. */
export default function DevicesPage() {
  const devices = useDevices();
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="h4" component="h1">
          {AdminTexts.devicesTitle}
        </Typography>
        <Button variant="contained" component={RouterLink} to={paths.deviceAdd}>
          {AdminTexts.addDeviceTitle}
        </Button>
      </Stack>
      {devices.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }} role="status" aria-label="Loading">
          <CircularProgress />
        </Box>
      ) : devices.isError ? (
        <Alert severity="error">{errorMessage(devices.error, AdminTexts.failedToLoadDevices)}</Alert>
      ) : devices.data.length === 0 ? (
        <Typography color="text.secondary">{AdminTexts.noDevices}</Typography>
      ) : (
        <TableContainer component={Paper}>
          <Table size="small" aria-label={AdminTexts.devicesTitle}>
            <TableHead>
              <TableRow>
                {DevicesTableColumns.map((c) => (
                  <TableCell key={c}>{c}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {devices.data.map((d) => (
                <TableRow key={d.id} hover>
                  <TableCell>{d.device_id}</TableCell>
                  <TableCell>{d.model ?? ''}</TableCell>
                  <TableCell>{d.type ?? ''}</TableCell>
                  <TableCell>{assignedTo(d)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
