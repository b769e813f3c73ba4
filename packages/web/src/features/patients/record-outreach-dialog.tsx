import { MenuItem, TextField } from '@mui/material';
import {
  OUTREACH_NOTES_MAX_LENGTH,
  OUTREACH_OUTCOMES,
  OutreachTexts,
  blankToNull,
  formSchema,
  hasText,
  requiredText,
  textRule,
  type FormValues,
  type OutreachOutcome,
} from '@rpm/contracts';
import { Controller, useWatch } from 'react-hook-form';
import { errorMessage } from '../../api/errors.ts';
import { useRecordOutreach } from '../../api/outreach/record-outreach.ts';
import { controlledFieldProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { SaveDialog } from './save-dialog.tsx';

const OutreachForm = formSchema({
  outcome: requiredText(OutreachTexts.outcomeRequired),
  notes: textRule((v) => v.length <= OUTREACH_NOTES_MAX_LENGTH, OutreachTexts.notesTooLong),
});
type OutreachFormValues = FormValues<typeof OutreachForm>;

/** Record outreach: what came of it (required) and optional notes; who and when are the server's. */
export default function RecordOutreachDialog({
  patientId,
  onClose,
  onRecorded,
}: {
  patientId: number;
  onClose: () => void;
  onRecorded: () => void;
}) {
  const form = useSchemaForm<OutreachFormValues>(OutreachForm, {
    mode: 'all',
    defaultValues: { outcome: '', notes: '' },
  });
  const [outcome, notes] = useWatch({ control: form.control, name: ['outcome', 'notes'] });
  const record = useRecordOutreach(patientId);
  const { enqueueSnackbar } = useSnackbar();

  const handleSave = form.handleSubmit(async (values) => {
    try {
      await record.mutateAsync({ outcome: values.outcome as OutreachOutcome, notes: blankToNull(values.notes) });
      enqueueSnackbar(OutreachTexts.saved, { variant: 'success' });
      onRecorded();
      onClose();
    } catch (err) {
      // The dialog stays open with what was typed.
      enqueueSnackbar(errorMessage(err, OutreachTexts.saveFailed), { variant: 'error' });
    }
  });

  return (
    <SaveDialog
      title={OutreachTexts.record}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={!hasText(outcome) || record.isPending}
      dirty={hasText(outcome) || hasText(notes)}
      discardTitle={OutreachTexts.discardTitle}
    >
      <Controller
        control={form.control}
        name="outcome"
        render={({ field, fieldState }) => (
          <TextField
            select
            autoFocus
            required
            fullWidth
            margin="dense"
            label={OutreachTexts.outcome}
            {...controlledFieldProps(field, fieldState)}
          >
            {OUTREACH_OUTCOMES.map((o) => (
              <MenuItem key={o} value={o}>
                {OutreachTexts.outcomes[o]}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TextField
        multiline
        minRows={3}
        fullWidth
        margin="dense"
        label={OutreachTexts.notes}
        slotProps={{ htmlInput: { maxLength: OUTREACH_NOTES_MAX_LENGTH } }}
        {...textFieldProps(form, 'notes')}
      />
    </SaveDialog>
  );
}
