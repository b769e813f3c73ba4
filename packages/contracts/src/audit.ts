import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AuditLog = Type.Object({
  id: Type.Integer(),
  timestamp: Timestamp,
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  ip_address: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  resource_type: Type.Union([Type.String(), Type.Null()]),
  resource_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  target_user_id: Type.Union([Type.Integer(), Type.Null()]),
  outcome: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
});
export type AuditLog = Static<typeof AuditLog>;

/** GET /api/audit-logs?limit&offset: server paging, newest first. */
export const AuditLogsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
    /** The `snapshot` of the first page's answer: later pages are read as the log stood then. */
    snapshot: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  },
  { additionalProperties: false },
);
export type AuditLogsQuery = Static<typeof AuditLogsQuery>;

/**
 * `total` is exact: the number of committed audit records, whatever the size of the log, as of
 * `snapshot` (how many records there were when paging began). Reading the log writes
 * records; passing `snapshot` back keeps rows from shifting between pages while one browses.
 */
export const AuditLogsResponse = Type.Object({
  logs: Type.Array(AuditLog),
  total: Type.Integer(),
  snapshot: Type.Integer(),
});
export type AuditLogsResponse = Static<typeof AuditLogsResponse>;
