import { IngestionTexts, UNMATCHED_QUOTA_PER_SOURCE, UNMATCHED_RETENTION_DAYS } from '@rpm/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UnmatchedQuota } from './unmatched-quota.tsx';

describe('UnmatchedQuota', () => {
  it('shows a source’s unmatched readings against its quota and how long they are kept', () => {
    render(
      <UnmatchedQuota
        source={{
          unmatched_count: 1234,
          unmatched_quota: UNMATCHED_QUOTA_PER_SOURCE,
          unmatched_retention_days: UNMATCHED_RETENTION_DAYS,
        }}
      />,
    );
    expect(screen.getByText(IngestionTexts.unmatchedQuotaUse(1234, UNMATCHED_QUOTA_PER_SOURCE))).toBeTruthy();
    expect(screen.getByText(IngestionTexts.unmatchedRetention(UNMATCHED_RETENTION_DAYS))).toBeTruthy();
    expect(screen.queryByText(IngestionTexts.unmatchedQuotaFull)).toBeNull();
  });

  it('says when the quota is full and new unmatched readings are refused', () => {
    render(<UnmatchedQuota source={{ unmatched_count: 50, unmatched_quota: 50, unmatched_retention_days: 30 }} />);
    expect(screen.getByText(IngestionTexts.unmatchedQuotaFull)).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });
});
