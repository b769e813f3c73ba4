import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';

/**
 * Closes a billing month without an admin (what the close route does, minus the snapshot): `month`
 * ('YYYY-MM-DD', its first day), or the current month of an organization or of a time zone.
 * Answers the month closed. Only the owner may take a close back.
 */
export async function closeMonth(
  db: Queryable,
  c: { month: string } | { currentOf: number } | { currentIn: string },
): Promise<string> {
  const month =
    'month' in c
      ? sql<string>`${c.month}::date`
      : 'currentIn' in c
        ? sql<string>`date_trunc('month', now() AT TIME ZONE ${c.currentIn})::date`
        : sql<string>`(SELECT date_trunc('month', now() AT TIME ZONE time_zone)::date FROM organizations WHERE id = ${c.currentOf})`;
  const row = await kysely(db)
    .insertInto('billing_closed_months')
    .values({ month })
    .returning(sql<string>`to_char(month, 'YYYY-MM-DD')`.as('month'))
    .executeTakeFirstOrThrow();
  return row.month;
}

/** Takes a close back; only the owner may (the database refuses anyone else, which tests check). */
export async function reopenMonth(db: Queryable, month: string): Promise<void> {
  await kysely(db).deleteFrom('billing_closed_months').where('month', '=', month).execute();
}

/**
 * A patient's snapshot of a closed month as closing wrote it before the evidence kept the patient's
 * claim facts and each entry's contact type and activity (a repair as the owner: give its pool).
 */
export async function oldStyleSnapshot(db: Queryable, month: string, patientId: number): Promise<void> {
  await sql`
    UPDATE billing_month_snapshots
       SET evidence = jsonb_set(evidence - 'patient', '{entries}',
             (SELECT jsonb_agg(e - 'contact_type' - 'activity') FROM jsonb_array_elements(evidence -> 'entries') e))
     WHERE month = ${month}::date AND patient_id = ${patientId}`.execute(kysely(db));
}

/**
 * A patient's kept billing lines (migration 1060) left wrong (999 minutes) and, as asked, past
 * their freshness or kept by other rules: only that can bring the right line back.
 */
export async function spoilKeptLines(
  db: Queryable,
  patientId: number,
  how: { expired: true } | { rules: string },
): Promise<void> {
  await kysely(db)
    .updateTable('billing_month_lines')
    .set({
      line: sql`jsonb_set(line, '{minutes}', '999')`,
      ...('expired' in how ? { fresh_until: sql`now() - interval '1 second'` } : { rules: how.rules }),
    })
    .where('patient_id', '=', patientId)
    .execute();
}
