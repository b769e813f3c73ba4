import { Box, LinearProgress, Typography } from '@mui/material';
import { IngestionTexts, type IngestionSource } from '@rpm/contracts';

/**
 * A source's unmatched readings against its quota, and how long they are kept: an admin sees a
 * source filling up (a cuff never assigned, a misconfigured clinic) before its readings are refused.
 */
export function UnmatchedQuota({
  source,
}: {
  source: Pick<IngestionSource, 'unmatched_count' | 'unmatched_quota' | 'unmatched_retention_days'>;
}) {
  const { unmatched_count: count, unmatched_quota: quota, unmatched_retention_days: days } = source;
  const full = count >= quota;
  const percent = quota > 0 ? Math.min(100, (count / quota) * 100) : 100;
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="body2">{IngestionTexts.unmatchedQuotaUse(count, quota)}</Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={full ? 'error' : percent >= 80 ? 'warning' : 'primary'}
        aria-label={`${IngestionTexts.unmatchedQuotaHeader}: ${IngestionTexts.unmatchedQuotaUse(count, quota)}`}
        sx={{ my: 0.5 }}
      />
      <Typography variant="caption" color="text.secondary">
        {IngestionTexts.unmatchedRetention(days)}
      </Typography>
      {full && (
        <Typography variant="body2" color="error">
          {IngestionTexts.unmatchedQuotaFull}
        </Typography>
      )}
    </Box>
  );
}
