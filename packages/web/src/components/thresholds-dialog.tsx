import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import {
  AlertSettingsTexts, AlertTexts,
  ORGANIZATION_ONLY_THRESHOLDS,
  THRESHOLDS,
  type PatientThresholds,
  type PatientThresholdsBody,
  type ThresholdDefinition,
  type ThresholdKey,
} from '@rpm/contracts';
import { useSavePatientThresholds } from '../api/alerts/save-patient-thresholds.ts';
import { errorMessage } from '../api/errors.ts';
import { useSnackbar } from '../lib/toast/toast.ts';
import { useSchemaForm } from './form/use-schema-form.ts';
import { ThresholdFields, thresholdsFormSchema, thresholdTexts, thresholdValues } from './threshold-fields.tsx';

/** A patient's own thresholds: all but the organization-only ones (the COPD oxygen target). */
const PATIENT_THRESHOLDS: readonly ThresholdDefinition[] = THRESHOLDS.filter(
  (d) => !ORGANIZATION_ONLY_THRESHOLDS.includes(d.key),
);
const PatientThresholdsForm = thresholdsFormSchema(PATIENT_THRESHOLDS);

/** Edits a patient's own thresholds; empty fields fall back to the organization's (or the portal's) value. */
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
  const form = useSchemaForm<Record<string, string>>(PatientThresholdsForm, {
    defaultValues: thresholdTexts(PATIENT_THRESHOLDS, current.overrides),
  });
  // The placeholder is what applies without the patient's own value: the effective value where
  // none is set (the organization's or the default); where one is set the organization's value is
  // not in this answer, so the portal default is shown.
  const fallback = (key: ThresholdKey) =>
    current.overrides[key] === null || current.overrides[key] === undefined
      ? current.effective[key]
      : THRESHOLDS.find((d) => d.key === key)!.default;
  const submit = form.handleSubmit((v) => {
    save.mutate(thresholdValues(PATIENT_THRESHOLDS, v) as PatientThresholdsBody, {
      onSuccess: () => {
        enqueueSnackbar(AlertSettingsTexts.thresholdsSaved, { variant: 'success' });
        onClose();
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, AlertSettingsTexts.thresholdsSave), { variant: 'error' }),
    });
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="thresholds-title" fullWidth maxWidth="md">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="thresholds-title">{AlertTexts.thresholdsTitle}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {AlertSettingsTexts.thresholdsHint}
          </Typography>
          <ThresholdFields
            form={form}
            definitions={PATIENT_THRESHOLDS}
            fallback={fallback}
            idPrefix="patient-threshold"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{AlertTexts.cancel}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {AlertSettingsTexts.thresholdsSave}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
