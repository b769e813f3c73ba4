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
import { Labels, PatientTexts } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { usePatients } from './api.ts';
import { statusText } from './format.ts';

/** /patients: every patient the user may see (the server decides which). */
export default function PatientsPage() {
  const patients = usePatients();

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="h4" component="h1">
          {PatientTexts.listTitle}
        </Typography>
        <Button variant="contained" component={RouterLink} to={paths.patientAdd}>
          {Labels.addPatient}
        </Button>
      </Stack>
      {patients.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }} role="status" aria-label="Loading">
          <CircularProgress />
        </Box>
      ) : patients.isError ? (
        <Alert severity="error">{errorMessage(patients.error, PatientTexts.failedToLoadPatients)}</Alert>
      ) : patients.data.length === 0 ? (
        <Typography color="text.secondary">{PatientTexts.noPatients}</Typography>
      ) : (
        <TableContainer component={Paper}>
          <Table size="small" aria-label={PatientTexts.listTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{PatientTexts.firstName}</TableCell>
                <TableCell>{PatientTexts.lastName}</TableCell>
                <TableCell>{PatientTexts.status}</TableCell>
                <TableCell align="right">{PatientTexts.actions}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {patients.data.map((p) => (
                <TableRow key={p.id} hover>
                  <TableCell>{p.first_name}</TableCell>
                  <TableCell>{p.last_name}</TableCell>
                  <TableCell>{statusText(p.enrollment_status)}</TableCell>
                  <TableCell align="right">
                    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                      <Button
                        size="small"
                        component={RouterLink}
                        to={paths.patient(p.id)}
                        aria-label={`${Labels.view} ${p.first_name} ${p.last_name}`}
                      >
                        {Labels.view}
                      </Button>
                      <Button
                        size="small"
                        component={RouterLink}
                        to={paths.patientEdit(p.id)}
                        aria-label={`${Labels.edit} ${p.first_name} ${p.last_name}`}
                      >
                        {Labels.edit}
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
