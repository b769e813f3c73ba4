import { Button, Stack } from '@mui/material';
import { SummaryTexts, monthOf, shiftMonth, summaryPagePath } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { useTimezone } from '../lib/timezone.ts';

/**
 * Links to a patient's monthly summary for the physician: this month's and last month's, as the
 * user's time zone names them (the summary itself counts days in the organization's zone).
 * `now` is for tests; the page passes nothing.
 */
export function SummaryLinks({ patientId, now }: { patientId: number; now?: Date }) {
  const { timezone } = useTimezone();
  const month = monthOf(now ?? new Date(), timezone);
  return (
    <Stack direction="row" aria-label={SummaryTexts.summaries} sx={{ flexWrap: 'wrap', gap: 1 }}>
      <Button size="small" variant="outlined" component={RouterLink} to={summaryPagePath(patientId, month)}>
        {SummaryTexts.thisMonth}
      </Button>
      <Button size="small" variant="outlined" component={RouterLink} to={summaryPagePath(patientId, shiftMonth(month, -1))}>
        {SummaryTexts.lastMonth}
      </Button>
    </Stack>
  );
}
