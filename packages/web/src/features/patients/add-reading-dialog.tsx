import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import {
  IngestionTexts,
  ManualVitalBody,
  ReadingLimits,
  formSchema,
  optionalWholeNumberText,
  requiredText,
  wholeNumberText,
  type FormValues,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAddReading } from '../../api/vitals/add-vital.ts';

/** What a reading field shows when outside its limits: "min–max". */
const range = ({ min, max }: { min: number; max: number }) => `${min}–${max}`;
const reading = ManualVitalBody.properties;

const ReadingForm = formSchema({
  // Marked when empty, with no text of its own.
  measured_at: requiredText(''),
  systolic: wholeNumberText(reading.systolic, range(ReadingLimits.systolic)),
  diastolic: wholeNumberText(reading.diastolic, range(ReadingLimits.diastolic)),
  pulse: optionalWholeNumberText(reading.pulse.anyOf[0], range(ReadingLimits.pulse)),
});
type ReadingForm = FormValues<typeof ReadingForm>;

/** Local date-time for the input's default value: now, to the minute. */
function nowLocal(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The Add Reading dialog, loaded when first wanted (see add-reading-button.tsx). */
export default function AddReadingDialog({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddReading(patientId);
  // Each opening starts from a fresh form: the dialog is mounted only while open.
  const { register, handleSubmit, formState } = useSchemaForm<ReadingForm>(ReadingForm, {
    reValidateMode: 'onChange',
    defaultValues: { measured_at: nowLocal(), systolic: '', diastolic: '', pulse: '' },
  });
  const close = onClose;
  const submit = handleSubmit((v) =>
    add.mutate(
      {
        measured_at: new Date(v.measured_at).toISOString(),
        systolic: Number(v.systolic),
        diastolic: Number(v.diastolic),
        pulse: v.pulse.trim() ? Number(v.pulse) : null,
      },
      {
        onSuccess: () => {
          enqueueSnackbar(IngestionTexts.readingAdded, { variant: 'success' });
          close();
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, IngestionTexts.addReading), { variant: 'error' }),
      },
    ),
  );
  const err = (k: keyof ReadingForm) => ({ error: !!formState.errors[k], helperText: formState.errors[k]?.message });
  return (
    <Dialog open onClose={close} aria-labelledby="add-reading-title">
        <form onSubmit={submit} noValidate>
          <DialogTitle id="add-reading-title">{IngestionTexts.addReading}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ mt: 1 }}>
              <TextField
                label={IngestionTexts.measuredAt}
                type="datetime-local"
                slotProps={{ inputLabel: { shrink: true } }}
                {...register('measured_at')}
                {...err('measured_at')}
              />
              <TextField
                label={IngestionTexts.systolic}
                inputMode="numeric"
                {...register('systolic')}
                {...err('systolic')}
              />
              <TextField
                label={IngestionTexts.diastolic}
                inputMode="numeric"
                {...register('diastolic')}
                {...err('diastolic')}
              />
              <TextField
                label={IngestionTexts.pulse}
                inputMode="numeric"
                {...register('pulse')}
                {...err('pulse')}
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{IngestionTexts.cancel}</Button>
            <Button type="submit" variant="contained" disabled={add.isPending}>
              {IngestionTexts.save}
            </Button>
          </DialogActions>
        </form>
    </Dialog>
  );
}
