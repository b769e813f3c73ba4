import { Alert, Button, Checkbox, Chip, FormControlLabel, FormGroup, Stack, Typography } from '@mui/material';
import { ObservationTexts, PROGRAMS, formSchema, type PatientProgramsInput } from '@rpm/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { usePatientPrograms } from '../../api/programs/get-patient-programs.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';
import { useUpdatePatientPrograms } from '../../api/programs/update-patient-programs.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { SaveDialog } from './save-dialog.tsx';

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
        <ProgramsDialog patientId={patientId} current={programs.data.programs} onClose={() => setEditing(false)} />
      )}
    </Stack>
  );
}

// Any set of programs is allowed (none included): the checkboxes need no rule of their own.
const ProgramsForm = formSchema({});

/** Checkboxes of every program; Save PUTs the patient's whole list. */
export function ProgramsDialog({
  patientId,
  current,
  onClose,
}: {
  patientId: number;
  current: readonly string[];
  onClose: () => void;
}) {
  const programs = usePrograms();
  const update = useUpdatePatientPrograms(patientId);
  const { enqueueSnackbar } = useSnackbar();
  const form = useForm<PatientProgramsInput>({
    resolver: schemaResolver<PatientProgramsInput>(ProgramsForm),
    defaultValues: { programs: [...current] },
  });
  const handleSave = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      enqueueSnackbar(ObservationTexts.programsSaved, { variant: 'success' });
      onClose();
    } catch {
      // Shown in the dialog, the choices kept.
    }
  });
  return (
    <SaveDialog
      title={ObservationTexts.editPrograms}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={update.isPending || !programs.data}
      dirty={form.formState.isDirty}
      discardTitle={ObservationTexts.discardPrograms}
    >
      {update.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {errorMessage(update.error, ObservationTexts.failedToSavePrograms)}
        </Alert>
      )}
      {programs.isError && (
        <Alert severity="error">{errorMessage(programs.error, ObservationTexts.failedToLoadPrograms)}</Alert>
      )}
      <Controller
        control={form.control}
        name="programs"
        render={({ field }) => (
          <FormGroup aria-label={ObservationTexts.programs}>
            {programs.data?.items.map((p) => (
              <FormControlLabel
                key={p.id}
                label={p.label}
                control={
                  <Checkbox
                    checked={field.value.includes(p.id)}
                    onChange={(e) =>
                      field.onChange(
                        e.target.checked ? [...field.value, p.id] : field.value.filter((id) => id !== p.id),
                      )
                    }
                  />
                }
              />
            ))}
          </FormGroup>
        )}
      />
    </SaveDialog>
  );
}
