import { Box, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { AlertTexts } from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { PATIENT_ALERTS_PAGE, useAlerts } from '../api/alerts/list-alerts.ts';
import { usePatientThresholds } from '../api/alerts/patient-thresholds.ts';
import { formatTimestamp } from '../lib/format-timestamp.ts';
import { useTimezone } from '../lib/timezone.ts';
import { alertReadingText, SeverityChip } from './alert-display.tsx';

// The edit dialog and its form library load when the dialog is first opened, not with the page.
const ThresholdsDialog = lazy(() => import('./thresholds-dialog.tsx'));

/** The patient page's alerts: the patient's open alerts and the thresholds their readings are checked against. */
export function PatientAlerts({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const alerts = useAlerts({ patient_id: patientId, status: 'open', ...PATIENT_ALERTS_PAGE });
  const acknowledged = useAlerts({ patient_id: patientId, status: 'acknowledged', ...PATIENT_ALERTS_PAGE });
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
        <Suspense fallback={null}>
          <ThresholdsDialog patientId={patientId} current={thresholds.data} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Box>
  );
}
