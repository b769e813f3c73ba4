import { Box, Button, Stack, TableCell, TableRow } from '@mui/material';
import { Labels, PatientTexts } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths.ts';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { usePatients } from './api.ts';
import { statusText } from './format.ts';

const columns = [
  PatientTexts.firstName,
  PatientTexts.lastName,
  PatientTexts.status,
  { label: PatientTexts.actions, align: 'right' as const },
];

/** /patients: every patient the user may see (the server decides which). */
export default function PatientsPage() {
  const patients = usePatients();

  return (
    <Box>
      <PageHeader title={PatientTexts.listTitle} action={{ label: Labels.addPatient, to: paths.patientAdd }} />
      <ListStates
        query={patients}
        errorFallback={PatientTexts.failedToLoadPatients}
        emptyText={PatientTexts.noPatients}
      >
        {(list) => (
          <DataTable label={PatientTexts.listTitle} columns={columns}>
            {list.map((p) => (
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
          </DataTable>
        )}
      </ListStates>
    </Box>
  );
}
