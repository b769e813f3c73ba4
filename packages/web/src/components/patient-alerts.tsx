import { Box, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { AlertTexts, bloodPressure, heartRate, type Alert, type ThresholdValues } from '@rpm/contracts';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { PATIENT_ALERTS_PAGE, useAlerts } from '../api/alerts/list-alerts.ts';
import { usePatientThresholds } from '../api/alerts/patient-thresholds.ts';
import { formatTimestamp } from '../lib/format-timestamp.ts';
import { useTimezone } from '../lib/timezone.ts';
import { alertReadingText, SeverityChip } from './alert-display.tsx';

// The edit dialog and its form library load when the dialog is first opened, not with the page.
const ThresholdsDialog = lazy(() => import('./thresholds-dialog.tsx'));

/**
 * The patient page's alerts: the patient's open alerts and the thresholds their readings are
 * checked against. `actions` draws what can be done with each alert (the page's own buttons).
 */
export function PatientAlerts({ patientId, actions }: { patientId: number; actions?: (alert: Alert) => ReactNode }) {
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
            <ListItem key={a.id} divider sx={{ flexWrap: 'wrap', columnGap: 1 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mr: 1 }}>
                <SeverityChip severity={a.severity} />
              </Stack>
              <ListItemText
                primary={`${AlertTexts.rules[a.rule]} · ${alertReadingText(a)}`}
                secondary={`${AlertTexts.statuses[a.status]} · ${formatTimestamp(a.last_at, timezone)} · ${a.count}×`}
              />
              {actions?.(a)}
            </ListItem>
          ))}
        </List>
      )}
      {thresholds.data && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="patient-thresholds">
          {thresholdsSummary(thresholds.data.effective)}
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

/** The numbers this patient's readings are held to, in the classifiers' own words. */
function thresholdsSummary(t: ThresholdValues): string {
  const labels = [...(bloodPressure.bands?.(t) ?? []), ...(heartRate.bands?.(t) ?? [])].map((b) => b.label);
  return [
    `${AlertTexts.thresholdsTitle}: ${AlertTexts.chartBandTarget} ${t.target_systolic}/${t.target_diastolic}`,
    ...new Set(labels),
  ].join(' · ');
}
