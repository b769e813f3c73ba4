import type { AlertThresholdKey } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, type Moment } from './common.ts';

/** Alert thresholds by their column names (`stage2_systolic`, …); null clears one. */
export type Thresholds = Partial<Record<AlertThresholdKey, number | null>>;

/** An alert of a patient, as evaluation raises one (no reading linked); open and raised now unless told. */
export async function buildAlert(
  db: Queryable,
  a: {
    patientId: number;
    organizationId: number;
    rule?: string;
    severity?: string;
    severityRank?: number;
    values?: Record<string, number>;
    status?: 'open' | 'acknowledged' | 'resolved';
    /** How long ago it was first raised (its last reading is now). */
    minutesAgo?: number;
    /** When it was first raised, instead of `minutesAgo`. */
    firstAt?: Moment;
    snoozedUntil?: Date | null;
    escalated?: boolean;
  },
): Promise<number> {
  const status = a.status ?? 'open';
  const { id } = await kysely(db)
    .insertInto('alerts')
    .values({
      patient_id: a.patientId,
      organization_id: a.organizationId,
      rule: a.rule ?? 'bp_stage2',
      severity: a.severity ?? 'warning',
      severity_rank: a.severityRank ?? 1,
      status,
      first_at:
        a.firstAt !== undefined
          ? momentSql(a.firstAt)
          : a.minutesAgo === undefined
            ? sql`now()`
            : sql`now() - make_interval(mins => ${a.minutesAgo}::int)`,
      last_at: sql`now()`,
      last_values: JSON.stringify(a.values ?? { systolic: 150, diastolic: 95 }),
      snoozed_until: a.snoozedUntil ?? null,
      escalated_at: a.escalated ? sql`now()` : null,
      acknowledged_at: status === 'acknowledged' ? sql`now()` : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An organization's alert settings row with its escalation and thresholds (others keep their defaults). */
export async function buildAlertSettings(
  db: Queryable,
  s: {
    organizationId: number;
    escalationMinutes?: number | null;
    escalationContactIds?: number[];
    thresholds?: Thresholds;
  },
): Promise<void> {
  await kysely(db)
    .insertInto('alert_settings')
    .values({
      organization_id: s.organizationId,
      escalation_minutes: s.escalationMinutes ?? null,
      ...(s.escalationContactIds === undefined ? {} : { escalation_contact_ids: s.escalationContactIds }),
      ...s.thresholds,
    })
    .execute();
}

/**
 * An alert (by id, or every alert of a patient) put in a status directly, as a person's action
 * would leave it without the note, minutes and audit the action adds.
 */
export async function setAlertStatus(
  db: Queryable,
  which: { id: number } | { patientId: number },
  status: 'open' | 'acknowledged' | 'resolved',
  extra: { resolvedAt?: Moment; resolutionReason?: string } = {},
): Promise<void> {
  const update = kysely(db)
    .updateTable('alerts')
    .set({
      status,
      ...(extra.resolvedAt === undefined ? {} : { resolved_at: momentSql(extra.resolvedAt) }),
      ...(extra.resolutionReason === undefined ? {} : { resolution_reason: extra.resolutionReason }),
    });
  await (
    'id' in which ? update.where('id', '=', which.id) : update.where('patient_id', '=', which.patientId)
  ).execute();
}

/** A patient's own alert thresholds, made or changed (the keys given; null clears one). */
export async function setPatientThresholds(db: Queryable, patientId: number, thresholds: Thresholds): Promise<void> {
  await kysely(db)
    .insertInto('patient_alert_thresholds')
    .values({ patient_id: patientId, ...thresholds })
    .onConflict((oc) => oc.column('patient_id').doUpdateSet(thresholds))
    .execute();
}
