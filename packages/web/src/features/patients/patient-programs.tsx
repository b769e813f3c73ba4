import { Button, Chip, Stack, Typography } from '@mui/material';
import { ObservationTexts, PROGRAMS } from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { usePatientPrograms } from '../../api/programs/get-patient-programs.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';

// The edit dialog and its form library load when it is first opened, not with the patient page.
const ProgramsDialog = lazy(() => import('./programs-dialog.tsx'));

/** A program's name: from the API's list, the built-in list while it loads, else its id. */
function useProgramLabel() {
  const programs = usePrograms();
  return (id: string) =>
    programs.data?.items.find((p) => p.id === id)?.label ?? PROGRAMS.find((p) => p.id === id)?.label ?? id;
}

/**
 * The patient's care programs as chips, and Edit for whoever may edit the patient (the page shows
 * its Edit to every user who can see the patient; the server decides, as for the patient's fields).
 */
export function PatientPrograms({ patientId, canEdit = true }: { patientId: number; canEdit?: boolean }) {
  const programs = usePatientPrograms(patientId);
  const label = useProgramLabel();
  const [editing, setEditing] = useState(false);
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }} aria-labelledby="programs-label">
      <Typography id="programs-label" component="span" sx={{ fontWeight: 600 }}>
        {ObservationTexts.programs}:
      </Typography>
      {programs.isError && (
        <Typography component="span" color="error">
          {errorMessage(programs.error, ObservationTexts.failedToLoadPrograms)}
        </Typography>
      )}
      {programs.data?.programs.length === 0 && (
        <Typography component="span" color="text.secondary">
          {ObservationTexts.noPrograms}
        </Typography>
      )}
      <Stack component="ul" direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', listStyle: 'none', p: 0, m: 0 }}>
        {programs.data?.programs.map((id) => (
          <li key={id}>
            <Chip size="small" color="primary" variant="outlined" label={label(id)} />
          </li>
        ))}
      </Stack>
      {canEdit && programs.data && (
        <Button size="small" onClick={() => setEditing(true)}>
          {ObservationTexts.editPrograms}
        </Button>
      )}
      {editing && programs.data && (
        <Suspense fallback={null}>
          <ProgramsDialog patientId={patientId} current={programs.data.programs} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
