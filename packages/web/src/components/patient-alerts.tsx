import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  ALERT_THRESHOLD_KEYS,
  AlertTexts,
  ReadingLimits,
  type AlertThresholdKey,
  type PatientThresholds,
  type PatientThresholdsBody,
} from '@rpm/contracts';
import { useSnackbar } from '../lib/toast/toast.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAlerts } from '../api/alerts/list-alerts.ts';
import { usePatientThresholds } from '../api/alerts/patient-thresholds.ts';
import { useSavePatientThresholds } from '../api/alerts/save-patient-thresholds.ts';
import { errorMessage } from '../api/errors.ts';
import { formatTimestamp } from '../lib/format-timestamp.ts';
import { useTimezone } from '../lib/timezone.ts';
import { alertReadingText, SeverityChip } from './alert-display.tsx';

/** The patient page's alerts: the patient's open alerts and the thresholds their readings are checked against. */
export function PatientAlerts({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const alerts = useAlerts({ patient_id: patientId, status: 'open', limit: 20, offset: 0 });
  const acknowledged = useAlerts({ patient_id: patientId, status: 'acknowledged', limit: 20, offset: 0 });
  const thresholds = usePatientThresholds(patientId);
  const [editing, setEditing] = useState(false);
  const items = [...(alerts.data?.items ?? []), ...(acknowledged.data?.items ?? [])];
  return (
    <Box component="section" aria-labelledby="patient-alerts-heading">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="patient-alerts-heading" variant="h6" component="h2">
          {AlertTexts.patientAlertsTitle}
        </Typography>
        <Button variant="outlined" onClick={() => setEditing(true)} disabled={!thresholds.data}>
          {AlertTexts.thresholdsEdit}
        </Button>
      </Stack>
      {alerts.isSuccess && items.length === 0 ? (
        <Typography color="text.secondary">{AlertTexts.patientNoAlerts}</Typography>
      ) : (
        <List dense aria-label={AlertTexts.patientAlertsTitle}>
          {items.map((a) => (
            <ListItem key={a.id} divider>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mr: 1 }}>
                <SeverityChip severity={a.severity} />
              </Stack>
              <ListItemText
                primary={`${AlertTexts.rules[a.rule]} · ${alertReadingText(a)}`}
                secondary={`${AlertTexts.statuses[a.status]} · ${formatTimestamp(a.last_at, timezone)} · ${a.count}×`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {thresholds.data && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="patient-thresholds">
          {AlertTexts.thresholdsTitle}: {AlertTexts.chartBandTarget} {thresholds.data.effective.target_systolic}/
          {thresholds.data.effective.target_diastolic} · {AlertTexts.chartBandStage2} ≥ {thresholds.data.effective.high_systolic}/
          {thresholds.data.effective.high_diastolic} · {AlertTexts.chartBandCrisis} &gt; {thresholds.data.effective.crisis_systolic}/
          {thresholds.data.effective.crisis_diastolic} · {AlertTexts.rules.bp_low} &lt; {thresholds.data.effective.low_systolic}/
          {thresholds.data.effective.low_diastolic} · {AlertTexts.thresholdLabels.pulse_low} {thresholds.data.effective.pulse_low} ·{' '}
          {AlertTexts.thresholdLabels.pulse_high} {thresholds.data.effective.pulse_high}
        </Typography>
      )}
      {editing && thresholds.data && (
        <ThresholdsDialog patientId={patientId} current={thresholds.data} onClose={() => setEditing(false)} />
      )}
    </Box>
  );
}

type ThresholdForm = Record<AlertThresholdKey, string>;

const limitsOf = (key: AlertThresholdKey) =>
  key.startsWith('pulse') ? ReadingLimits.pulse : key.endsWith('diastolic') ? ReadingLimits.diastolic : ReadingLimits.systolic;

function ThresholdsDialog({ patientId, current, onClose }: { patientId: number; current: PatientThresholds; onClose: () => void }) {
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
