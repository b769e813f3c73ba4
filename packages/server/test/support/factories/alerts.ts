import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';

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
      first_at: a.minutesAgo === undefined ? sql`now()` : sql`now() - make_interval(mins => ${a.minutesAgo}::int)`,
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

/** An organization's alert settings row with its escalation (other settings keep their defaults). */
export async function buildAlertSettings(
  db: Queryable,
  s: { organizationId: number; escalationMinutes?: number | null; escalationContactIds?: number[] },
): Promise<void> {
  await kysely(db)
    .insertInto('alert_settings')
    .values({
      organization_id: s.organizationId,
      escalation_minutes: s.escalationMinutes ?? null,
      ...(s.escalationContactIds === undefined ? {} : { escalation_contact_ids: s.escalationContactIds }),
    })
    .execute();
}
