/*
 * The audit writer's SQL: one record per audited request, or its columns for a statement that
 * records itself. Part of the kernel because every module writes audit records through it; the
 * audit module reads, lists and seals them.
 */
import type { AuditOutcome } from '@rpm/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from '../db/pool.ts';
import { kysely, template, type Template } from '../db/kysely.ts';

export interface AuditEntry {
  action: string;
  outcome: AuditOutcome;
  resourceType?: string | null;
  resourceId?: string | number | null;
  details?: Record<string, unknown> | null;
  targetUserId?: number | null;
  reason?: string | null;
  userId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export async function insertAuditLog(db: Queryable, e: AuditEntry): Promise<void> {
  // Every audited request writes one: compiled once, sent as a named statement.
  insertTemplate ??= template('audit_insert_v1', [...AUDIT_RECORD_COLUMNS], (v) => insertQuery(db, v).compile());
  await insertTemplate.run(db, auditRecordValues(e));
}

/** An entry as the columns of its record: the one mapping, whichever statement writes it. */
export function auditRecordValues(e: AuditEntry): AuditInsertValues {
  return {
    user_id: e.userId ?? null,
    ip_address: e.ipAddress ?? null,
    action: e.action,
    resource_type: e.resourceType ?? null,
    resource_id: e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId),
    // As JSON text: the driver would send a JavaScript array as a PostgreSQL array.
    details: e.details ? JSON.stringify(e.details) : null,
    target_user_id: e.targetUserId ?? null,
    outcome: e.outcome,
    reason: e.reason ?? null,
    user_agent: e.userAgent ?? null,
    request_id: e.requestId ?? null,
  };
}

/** A record's columns, each bound as a statement parameter, except `details`. */
type AuditRecordParams = Omit<AuditInsertValues, 'details'>;

/** The parameter names of a record inside another statement (see auditRecordSelection). */
export const AUDIT_RECORD_PARAM_KEYS = Object.keys(
  prefixedAuditRecordParams({ action: '', outcome: 'success' }),
) as (keyof PrefixedAuditRecordParams)[];

/** `AuditRecordParams` under the names a statement binds them by (no clash with its own). */
export type PrefixedAuditRecordParams = { [K in keyof AuditRecordParams as `audit_${K}`]: AuditRecordParams[K] };

export function prefixedAuditRecordParams(e: AuditEntry): PrefixedAuditRecordParams {
  const v = auditRecordValues(e);
  return {
    audit_user_id: v.user_id,
    audit_ip_address: v.ip_address,
    audit_action: v.action,
    audit_resource_type: v.resource_type,
    audit_resource_id: v.resource_id,
    audit_target_user_id: v.target_user_id,
    audit_outcome: v.outcome,
    audit_reason: v.reason,
    audit_user_agent: v.user_agent,
    audit_request_id: v.request_id,
  };
}

/**
 * For a read that records itself in its own statement (one round trip, and no read without its
 * record): the select list of one audit record, from bound parameters, with `details` computed by
 * the statement (say, the number of rows it read). Insert it with the columns AUDIT_RECORD_COLUMNS.
 */
export function auditRecordSelection(p: PrefixedAuditRecordParams, details: RawBuilder<unknown>) {
  return [
    sql<number | null>`${p.audit_user_id}::int`.as('user_id'),
    sql<string | null>`${p.audit_ip_address}::text`.as('ip_address'),
    sql<string>`${p.audit_action}::text`.as('action'),
    sql<string | null>`${p.audit_resource_type}::text`.as('resource_type'),
    sql<string | null>`${p.audit_resource_id}::text`.as('resource_id'),
    details.as('details'),
    sql<number | null>`${p.audit_target_user_id}::int`.as('target_user_id'),
    sql<string>`${p.audit_outcome}::text`.as('outcome'),
    sql<string | null>`${p.audit_reason}::text`.as('reason'),
    sql<string | null>`${p.audit_user_agent}::text`.as('user_agent'),
    sql<string | null>`${p.audit_request_id}::text`.as('request_id'),
  ] as const;
}

/** The columns auditRecordSelection fills, in its order. */
export const AUDIT_RECORD_COLUMNS = [
  'user_id',
  'ip_address',
  'action',
  'resource_type',
  'resource_id',
  'details',
  'target_user_id',
  'outcome',
  'reason',
  'user_agent',
  'request_id',
] as const;

export interface AuditInsertValues {
  user_id: number | null;
  ip_address: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: string | null;
  target_user_id: number | null;
  outcome: AuditOutcome;
  reason: string | null;
  user_agent: string | null;
  request_id: string | null;
}

const insertQuery = (db: Queryable, v: AuditInsertValues) => kysely(db).insertInto('audit_logs').values(v);

let insertTemplate: Template<AuditInsertValues, unknown> | undefined;
