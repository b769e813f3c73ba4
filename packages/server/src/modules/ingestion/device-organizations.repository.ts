import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/**
 * For each (device, time), the organization of the patient who had the device then; null when
 * nobody had it or the device is unknown. What a source's organization is checked against before
 * it touches a device's data.
 */
export async function deviceOrganizations(
  db: Queryable,
  items: { device: string; at: Date }[],
): Promise<(number | null)[]> {
  if (items.length === 0) return [];
  // A list of (device, time) pairs in order has no query-builder form: unnest WITH ORDINALITY.
  const { rows } = await sql<{ organization_id: number | null }>`
    SELECT (SELECT p.organization_id FROM devices d JOIN device_assignments a ON a.device_id = d.id
              JOIN patients p ON p.id = a.patient_id
             WHERE lower(btrim(d.device_id)) = lower(btrim(i.device)) AND a.assigned_from <= i.at
               AND (a.assigned_to IS NULL OR a.assigned_to > i.at)
             ORDER BY a.assigned_from DESC LIMIT 1) AS organization_id
      FROM unnest(${items.map((i) => i.device)}::text[], ${items.map((i) => i.at)}::timestamptz[])
           WITH ORDINALITY AS i(device, at, ord)
     ORDER BY i.ord`.execute(kysely(db));
  return rows.map((r) => r.organization_id);
}
