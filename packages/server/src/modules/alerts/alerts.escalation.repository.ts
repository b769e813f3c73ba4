import { DEFAULT_ESCALATION_MINUTES, LATE_READING_HOURS } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AlertChange } from './alerts.repository.ts';

export interface ClaimedEscalation extends AlertChange {
  rule: string;
}

/**
 * Claims the critical alerts due for escalation as of `now`: still open (nobody acknowledged
 * them), not escalated yet, of a patient actively enrolled, whose first reading is older than the
 * organization's escalation_minutes. The deadline runs from first_at, the reading that raised the
 * alert (the patient has been at risk since then, whenever it reached the portal), but an alert
 * whose newest reading is older than LATE_READING_HOURS (a device cloud's backlog) is not paged,
 * as for the critical e-mail. One UPDATE sets escalated_at only where it is still NULL: with
 * several instances each alert is claimed by exactly one (a concurrent claimer waits on the row
 * lock, then finds escalated_at set and skips it).
 */
export async function claimEscalations(db: Queryable, now: Date): Promise<ClaimedEscalation[]> {
  const { rows } = await sql<ClaimedEscalation>`
    UPDATE alerts a SET escalated_at = ${now}, updated_at = now()
      FROM patients p
     WHERE p.id = a.patient_id AND p.enrolled_rpm AND p.enrollment_status = 'Active'
       AND a.severity = 'critical' AND a.status = 'open' AND a.escalated_at IS NULL
       AND a.first_at <= ${now}::timestamptz - make_interval(mins => coalesce(
             (SELECT s.escalation_minutes FROM alert_settings s WHERE s.organization_id = a.organization_id),
             ${DEFAULT_ESCALATION_MINUTES}::int))
       AND a.last_at >= ${now}::timestamptz - make_interval(hours => ${LATE_READING_HOURS}::int)
     RETURNING a.id, a.patient_id, a.organization_id, a.severity, a.status, a.rule`.execute(kysely(db));
  return rows;
}

/**
 * Who hears of an escalated alert: the organization's escalation contacts that are active users
 * of that organization; when there are none, the patient's primary provider (if active).
 */
export async function escalationRecipients(db: Queryable, alertId: number): Promise<string[]> {
  const { rows } = await sql<{ email: string }>`
    WITH a AS (
      SELECT a.organization_id, p.primary_provider_id,
             coalesce((SELECT s.escalation_contact_ids FROM alert_settings s WHERE s.organization_id = a.organization_id),
                      '{}') AS contacts
        FROM alerts a JOIN patients p ON p.id = a.patient_id WHERE a.id = ${alertId}
    ),
    c AS (
      SELECT u.email FROM a JOIN users u ON u.id = ANY (a.contacts)
       WHERE u.organization_id = a.organization_id AND u.status = 'active'
    )
    SELECT email FROM c
    UNION
    SELECT u.email FROM a JOIN users u ON u.id = a.primary_provider_id
     WHERE u.status = 'active' AND NOT EXISTS (SELECT 1 FROM c)
    ORDER BY 1`.execute(kysely(db));
  return rows.map((r) => r.email);
}
