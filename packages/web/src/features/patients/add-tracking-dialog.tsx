import { Box, Stack, TextField, Typography } from '@mui/material';
import {
  BillingTexts,
  Labels,
  PatientTexts,
  TRACKING_MAX_MINUTES,
  TRACKING_MIN_MINUTES,
  TRACKING_MINUTES_DEFAULT,
  TrackingSessionInput,
  UxTexts,
  anyText,
  formSchema,
  hasText,
  requiredText,
  wholeNumberText,
  type FormValues,
} from '@rpm/contracts';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { inputProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddTrackingEntry } from '../../api/tracking/add-tracking-entry.ts';
import { SaveDialog } from './save-dialog.tsx';

const TrackingForm = formSchema({
  date: requiredText(UxTexts.trackingDateRequired),
  duration_minutes: wholeNumberText(TrackingSessionInput.properties.duration_minutes, UxTexts.trackingMinutesRange),
  notes: anyText(),
});

export default function AddTrackingDialog({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const { timezone } = useTimezone();
  // "Today" is today in the zone the user works in.
  const [initial] = useState(() => ({
    date: format(new TZDate(Date.now(), timezone), 'yyyy-MM-dd'),
    duration_minutes: String(TRACKING_MINUTES_DEFAULT),
    notes: '',
  }));
  const form = useSchemaForm<FormValues<typeof TrackingForm>>(TrackingForm, { defaultValues: initial });
  const [date, minutes, notes] = useWatch({ control: form.control, name: ['date', 'duration_minutes', 'notes'] });
  // Marks the entry as a live call or video with the patient (billing needs one a month).
  const [interactive, setInteractive] = useState(false);
  const add = useAddTrackingEntry(patientId);
  const { enqueueSnackbar } = useSnackbar();

  // Save is never silently greyed out: a click on it says what still needs fixing.
  const handleSave = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync({
        date: values.date,
        duration_minutes: Number(values.duration_minutes),
        notes: hasText(values.notes) ? values.notes : null,
        interactive,
      });
      enqueueSnackbar(PatientTexts.trackingAdded, { variant: 'success' });
      onClose();
    } catch (err) {
      enqueueSnackbar(errorMessage(err, PatientTexts.trackingFailed), { variant: 'error' });
    }
  });

  return (
    <SaveDialog
      title={Labels.addTrackingTime}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={add.isPending}
      dirty={hasText(notes) || minutes !== initial.duration_minutes || date !== initial.date || interactive}
      discardTitle={UxTexts.discardTrackingTitle}
    >
      <Stack spacing={1} sx={{ mt: 1 }}>
        <TextField
          type="date"
          label={PatientTexts.date}
          slotProps={{ inputLabel: { shrink: true } }}
          {...textFieldProps(form, 'date')}
        />
        <TextField
          type="number"
          label={PatientTexts.minutes}
          slotProps={{ htmlInput: { min: TRACKING_MIN_MINUTES, max: TRACKING_MAX_MINUTES, step: 1 } }}
          {...textFieldProps(form, 'duration_minutes')}
        />
        <TextField label={PatientTexts.notes} multiline minRows={2} {...inputProps(form, 'notes')} />
        {/* A native checkbox: MUI's would add its own code to the patient page's first load. */}
        <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1, cursor: 'pointer' }}>
          <Box
            component="input"
            type="checkbox"
            checked={interactive}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => setInteractive(e.target.checked)}
            sx={{ width: 18, height: 18, m: 0, accentColor: (t) => t.palette.primary.main }}
          />
          <Typography>{BillingTexts.interactiveCheckbox}</Typography>
        </Box>
      </Stack>
    </SaveDialog>
  );
}
