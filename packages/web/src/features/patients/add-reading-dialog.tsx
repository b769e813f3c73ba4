import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { IngestionTexts, ReadingLimits } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../lib/api-client.ts';
import { useAddReading } from './api.ts';

interface ReadingForm {
  measured_at: string;
  systolic: string;
  diastolic: string;
  pulse: string;
}

/** Local date-time for the input's default value: now, to the minute. */
function nowLocal(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const whole = (min: number, max: number) => (v: string) => {
  const n = Number(v);
  return (v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max) || `${min}–${max}`;
};

/** Add Reading: a blood-pressure reading typed in by staff, stored as a manual reading. */
export function AddReadingButton({ patientId }: { patientId: number }) {
  const [open, setOpen] = useState(false);
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddReading(patientId);
  const { register, handleSubmit, reset, formState } = useForm<ReadingForm>({
    mode: 'onBlur',
    defaultValues: { measured_at: nowLocal(), systolic: '', diastolic: '', pulse: '' },
  });
  const close = () => {
    setOpen(false);
    reset({ measured_at: nowLocal(), systolic: '', diastolic: '', pulse: '' });
  };
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
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)}>
        {IngestionTexts.addReading}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="add-reading-title">
        <form onSubmit={submit} noValidate>
          <DialogTitle id="add-reading-title">{IngestionTexts.addReading}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ mt: 1 }}>
              <TextField
                label={IngestionTexts.measuredAt}
                type="datetime-local"
                slotProps={{ inputLabel: { shrink: true } }}
                {...register('measured_at', { required: true })}
                {...err('measured_at')}
              />
              <TextField
                label={IngestionTexts.systolic}
                inputMode="numeric"
                {...register('systolic', { validate: whole(ReadingLimits.systolic.min, ReadingLimits.systolic.max) })}
                {...err('systolic')}
              />
              <TextField
                label={IngestionTexts.diastolic}
                inputMode="numeric"
                {...register('diastolic', {
                  validate: whole(ReadingLimits.diastolic.min, ReadingLimits.diastolic.max),
                })}
                {...err('diastolic')}
              />
              <TextField
                label={IngestionTexts.pulse}
                inputMode="numeric"
                {...register('pulse', {
                  validate: (v) => v.trim() === '' || whole(ReadingLimits.pulse.min, ReadingLimits.pulse.max)(v),
                })}
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
    </>
  );
}
