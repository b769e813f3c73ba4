import {
  UNMATCHED_QUOTA_PER_SOURCE,
  UNMATCHED_RETENTION_DAYS,
  type IngestionSource,
  type IngestionSourceWithSecret,
} from '@rpm/contracts';
import type { RejectionRow, SourceRow } from './ingestion-sources.repository.ts';

/** A source's unmatched readings against its quota, and how long they are kept. */
export interface UnmatchedUse {
  count: number;
  quota: number;
  retentionDays: number;
}
const NO_UNMATCHED: UnmatchedUse = {
  count: 0,
  quota: UNMATCHED_QUOTA_PER_SOURCE,
  retentionDays: UNMATCHED_RETENTION_DAYS,
};

/** A source as admins see it: never its secret hash. */
export function presentSource(row: SourceRow, rejections: RejectionRow[], unmatched = NO_UNMATCHED): IngestionSource {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    auth_header: row.auth_header,
    can_read: row.can_read,
    organization_id: row.organization_id,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    rotated_at: row.rotated_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    recent_rejections: rejections
      .filter((r) => r.source_id === row.id)
      .map((r) => ({ reason: r.reason, device_id: r.device_identifier, created_at: r.created_at.toISOString() })),
    unmatched_count: unmatched.count,
    unmatched_quota: unmatched.quota,
    unmatched_retention_days: unmatched.retentionDays,
  };
}

export const presentSourceWithSecret = (row: SourceRow, secret: string): IngestionSourceWithSecret => ({
  ...presentSource(row, []),
  secret,
});
