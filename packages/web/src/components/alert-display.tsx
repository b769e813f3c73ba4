import { Chip, Stack, Typography } from '@mui/material';
import { AlertTexts, type Alert, type AlertSeverity } from '@rpm/contracts';
import { formatTimestamp } from '../lib/format-timestamp.ts';

const SEVERITY_COLOR: Record<AlertSeverity, 'error' | 'warning' | 'info'> = {
  critical: 'error',
  warning: 'warning',
  info: 'info',
};

/** The chip says how urgent ("Needs review"), never which way the value went; the hint says what to do. */
export function SeverityChip({ severity }: { severity: AlertSeverity }) {
  return (
    <Chip
      // A native title: the MUI tooltip would weigh on every page that shows a chip.
      title={AlertTexts.severityHints[severity]}
      size="small"
      color={SEVERITY_COLOR[severity]}
      variant={severity === 'critical' ? 'filled' : 'outlined'}
      label={AlertTexts.severities[severity]}
      // Orange and light-blue text on white fall short of 4.5:1; the border carries the colour.
      sx={severity === 'critical' ? undefined : { color: 'text.primary' }}
    />
  );
}

/**
 * What the alert last saw, as a person reads it: "192/104 mmHg, pulse 80", "142/88 mmHg, average
 * of 9 readings" or "No reading for 4 days". Values are in the canonical units the alert stores.
 */
export function alertReadingText(a: Pick<Alert, 'rule' | 'last_values'>): string {
  const v = a.last_values;
  if (a.rule === 'stale_data') return AlertTexts.staleDays(v.days_without_reading ?? 0);
  const parts: string[] = [];
  if (v.systolic !== undefined && v.diastolic !== undefined) parts.push(`${v.systolic}/${v.diastolic} mmHg`);
  if (v.pulse !== undefined && v.pulse !== null) parts.push(`pulse ${v.pulse}`);
  if (v.gain !== undefined) parts.push(`+${v.gain} kg`);
  else if (v.weight !== undefined) parts.push(`${v.weight} kg`);
  if (v.glucose !== undefined) parts.push(`${v.glucose} mg/dL`);
  if (v.spo2 !== undefined) parts.push(`SpO₂ ${v.spo2} %`);
  if (v.temperature !== undefined) parts.push(`${v.temperature} °C`);
  if (v.irregular_heartbeat) parts.push(AlertTexts.rules.irregular_heartbeat.toLowerCase());
  if (v.mean_of !== undefined) parts.push(AlertTexts.meanOf(v.mean_of));
  return parts.join(', ');
}

/** Where the alert stands: crisis confirmed or not, cleared, escalated, acknowledged and by whom, snoozed. */
export function AlertStateMarks({ alert: a, timezone }: { alert: Alert; timezone: string }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      {a.confirmed !== null && (
        <Typography variant="caption" color={a.confirmed ? 'error.main' : 'text.secondary'} sx={{ fontWeight: 600 }}>
          {a.confirmed ? AlertTexts.confirmed : AlertTexts.unconfirmed}
        </Typography>
      )}
      {a.escalated_at && (
        <Chip
          size="small"
          color="error"
          variant="outlined"
          label={AlertTexts.escalated}
          sx={{ color: 'text.primary' }}
        />
      )}
      {a.cleared_at && (
        <Chip
          title={AlertTexts.clearedHint}
          size="small"
          color="success"
          variant="outlined"
          label={AlertTexts.cleared}
          sx={{ color: 'text.primary' }}
        />
      )}
      {a.status === 'acknowledged' && a.acknowledged_by_name && (
        <Typography variant="caption" color="text.secondary">
          {AlertTexts.acknowledgedBy(a.acknowledged_by_name)}
        </Typography>
      )}
      {a.snoozed_until && new Date(a.snoozed_until).getTime() > Date.now() && (
        <Typography variant="caption" color="text.secondary">
          {AlertTexts.snoozedUntil(formatTimestamp(a.snoozed_until, timezone))}
        </Typography>
      )}
    </Stack>
  );
}
