import { Chip } from '@mui/material';
import { AlertTexts, type Alert, type AlertSeverity } from '@rpm/contracts';

const SEVERITY_COLOR: Record<AlertSeverity, 'error' | 'warning' | 'info'> = {
  critical: 'error',
  high: 'warning',
  info: 'info',
};

export function SeverityChip({ severity }: { severity: AlertSeverity }) {
  return (
    <Chip
      size="small"
      color={SEVERITY_COLOR[severity]}
      variant={severity === 'critical' ? 'filled' : 'outlined'}
      label={AlertTexts.severities[severity]}
      // Orange and light-blue text on white fall short of 4.5:1; the border carries the colour.
      sx={severity === 'critical' ? undefined : { color: 'text.primary' }}
    />
  );
}

/** What the alert last saw, as a person reads it: "192/104 mmHg, pulse 80" or "No reading for 4 days". */
export function alertReadingText(a: Pick<Alert, 'rule' | 'last_values'>): string {
  const v = a.last_values;
  if (a.rule === 'stale_data') return AlertTexts.staleDays(v.days_without_reading ?? 0);
  const parts: string[] = [];
  if (v.systolic !== undefined && v.diastolic !== undefined) parts.push(`${v.systolic}/${v.diastolic} mmHg`);
  if (v.pulse !== undefined && v.pulse !== null) parts.push(`pulse ${v.pulse}`);
  if (v.irregular_heartbeat) parts.push(AlertTexts.rules.irregular_heartbeat.toLowerCase());
  return parts.join(', ');
}
