import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Grid, TextField, Typography } from '@mui/material';
import {
  ALERT_THRESHOLD_KEYS,
  AlertTexts,
  ReadingLimits,
  type AlertThresholdKey,
  type PatientThresholds,
  type PatientThresholdsBody,
} from '@rpm/contracts';
import { useForm } from 'react-hook-form';
import { useSavePatientThresholds } from '../api/alerts/save-patient-thresholds.ts';
import { errorMessage } from '../api/errors.ts';
import { useSnackbar } from '../lib/toast/toast.ts';

type ThresholdForm = Record<AlertThresholdKey, string>;

const limitsOf = (key: AlertThresholdKey) =>
  key.startsWith('pulse')
    ? ReadingLimits.pulse
    : key.endsWith('diastolic')
      ? ReadingLimits.diastolic
      : ReadingLimits.systolic;

/** Edits a patient's own thresholds; empty fields fall back to the defaults. */
export default function ThresholdsDialog({
  patientId,
  current,
  onClose,
}: {
  patientId: number;
  current: PatientThresholds;
  onClose: () => void;
}) {
  const save = useSavePatientThresholds(patientId);
  const { enqueueSnackbar } = useSnackbar();
  const { register, handleSubmit, formState } = useForm<ThresholdForm>({
    mode: 'onBlur',
    defaultValues: Object.fromEntries(
      ALERT_THRESHOLD_KEYS.map((k) => [k, current.overrides[k] === null ? '' : String(current.overrides[k])]),
    ) as ThresholdForm,
  });
  const submit = handleSubmit((v) => {
    const body = Object.fromEntries(
      ALERT_THRESHOLD_KEYS.map((k) => [k, v[k].trim() === '' ? null : Number(v[k])]),
    ) as PatientThresholdsBody;
    save.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(AlertTexts.thresholdsSaved, { variant: 'success' });
        onClose();
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.thresholdsSave), { variant: 'error' }),
    });
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="thresholds-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="thresholds-title">{AlertTexts.thresholdsTitle}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {AlertTexts.thresholdsHint}
          </Typography>
          <Grid container spacing={2}>
            {ALERT_THRESHOLD_KEYS.map((k) => {
              const { min, max } = limitsOf(k);
              return (
                <Grid key={k} size={{ xs: 12, sm: 6 }}>
                  <TextField
                    fullWidth
                    size="small"
                    inputMode="numeric"
                    label={AlertTexts.thresholdLabels[k]}
                    placeholder={String(current.effective[k])}
                    {...register(k, {
                      validate: (val) => {
                        if (val.trim() === '') return true;
                        const n = Number(val);
                        return (Number.isInteger(n) && n >= min && n <= max) || `${min}–${max}`;
                      },
                    })}
                    error={!!formState.errors[k]}
                    helperText={formState.errors[k]?.message}
                  />
                </Grid>
              );
            })}
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{AlertTexts.cancel}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {AlertTexts.thresholdsSave}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
