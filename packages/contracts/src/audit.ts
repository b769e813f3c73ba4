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
