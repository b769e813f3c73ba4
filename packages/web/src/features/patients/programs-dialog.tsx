import { Alert, Checkbox, FormControlLabel, FormGroup } from '@mui/material';
import { ObservationTexts, formSchema, type PatientProgramsInput } from '@rpm/contracts';
import { Controller, useForm } from 'react-hook-form';
import { errorMessage } from '../../api/errors.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';
import { useUpdatePatientPrograms } from '../../api/programs/update-patient-programs.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { SaveDialog } from './save-dialog.tsx';

// Any set of programs is allowed (none included): the checkboxes need no rule of their own.
const ProgramsForm = formSchema({});

/** Checkboxes of every program; Save PUTs the patient's whole list. */
export default function ProgramsDialog({
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
