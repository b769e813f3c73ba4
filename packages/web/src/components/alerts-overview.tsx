import { Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { ALERT_SEVERITIES, AlertTexts } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { useAlertSummary } from '../api/alerts/alert-summary.ts';
import { SeverityChip } from './alert-display.tsx';

/**
 * The dashboard's view of the worklist: active alerts by severity (critical, needs review, for
 * information), how many escalated, and patients with stale data.
 * The cards are not links themselves: a card-wide link would take its whole text as its name
 * ("Open alerts 0 …", "Patients with stale data 0"), which then competes with the sidebar's
 * Alerts and Patients entries for anyone (or any tool) looking for a link by name. One link
 * with its own words leads to the worklist instead.
 */
export function AlertsOverview() {
  const summary = useAlertSummary();
  const s = summary.data;
  if (!s) return null;
  return (
    <Box component="section" aria-labelledby="alerts-overview-open" sx={{ mt: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Card variant="outlined" sx={{ flex: 1 }}>
          <CardContent>
            <Typography id="alerts-overview-open" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {AlertTexts.dashboardAlertsTitle}
            </Typography>
            <Typography variant="h3" component="p">
              {s.open}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
              {ALERT_SEVERITIES.map((sev) => (
                <Box key={sev} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                  <SeverityChip severity={sev} />
                  <Typography variant="body2">{s.by_severity[sev]}</Typography>
                </Box>
              ))}
              {s.escalated > 0 && (
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="alerts-overview-escalated">
                  <Chip size="small" color="error" label={AlertTexts.escalated} />
                  <Typography variant="body2">{s.escalated}</Typography>
                </Box>
              )}
            </Stack>
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ flex: 1 }}>
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {AlertTexts.dashboardStaleTitle}
            </Typography>
            <Typography variant="h3" component="p">
              {s.stale_patients}
            </Typography>
          </CardContent>
        </Card>
      </Stack>
      <Button component={RouterLink} to="/alerts" sx={{ mt: 1 }}>
        {AlertTexts.dashboardOpenWorklist}
      </Button>
    </Box>
  );
}
