import type { Queryable } from '../../db/pool.ts';
import type { DeviceRow, PatientRow, VitalRow } from '../../presenters/fhir.ts';

export async function findPatient(
  db: Queryable,
  id: number,
): Promise<(PatientRow & { organization_id: number }) | null> {
  const { rows } = await db.query<PatientRow & { organization_id: number }>(
    `SELECT id, first_name, middle_name, last_name, date_of_birth, gender, organization_id FROM patients WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findVital(db: Queryable, id: number): Promise<(VitalRow & { organization_id: number }) | null> {
  const { rows } = await db.query<VitalRow & { organization_id: number }>(
    `SELECT v.id, v.patient_id, v.created_at, v.systolic, v.diastolic, v.pulse, v.source, p.organization_id
       FROM vitals v JOIN patients p ON p.id = v.patient_id WHERE v.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Newest first within [from, to), `limit` rows after skipping `offset`: an index range scan per page. */
export async function searchVitals(
  db: Queryable,
  q: { patientId: number; from: Date | null; to: Date | null; limit: number; offset: number },
): Promise<VitalRow[]> {
  const { rows } = await db.query<VitalRow>(
    `SELECT id, patient_id, created_at, systolic, diastolic, pulse, source FROM vitals
      WHERE patient_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)
      ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [q.patientId, q.from, q.to, q.limit, q.offset],
  );
  return rows;
}

/**
 * Devices with that id. With `organizationId` (a provider) a device's patient is shown only when
 * the patient is of that organization; a device of another organization's patient is left out.
 */
export async function devicesByIdentifier(
  db: Queryable,
  identifier: string,
  organizationId: number | null,
): Promise<DeviceRow[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT d.id, d.device_id, d.model, d.type, d.patient_id
       FROM devices d LEFT JOIN patients p ON p.id = d.patient_id
      WHERE lower(btrim(d.device_id)) = lower(btrim($1))
        AND ($2::int IS NULL OR d.patient_id IS NULL OR p.organization_id = $2)`,
    [identifier, organizationId],
  );
  return rows;
}

/** The patient who had each device at each time (null when nobody had it or it is unknown). */
export async function attributedPatients(
  db: Queryable,
  items: { device: string; at: Date }[],
): Promise<(number | null)[]> {
  if (items.length === 0) return [];
  const { rows } = await db.query<{ patient_id: number | null }>(
    `SELECT (SELECT a.patient_id FROM devices d JOIN device_assignments a ON a.device_id = d.id
              WHERE lower(btrim(d.device_id)) = lower(btrim(i.device)) AND a.assigned_from <= i.at
                AND (a.assigned_to IS NULL OR a.assigned_to > i.at)
              ORDER BY a.assigned_from DESC LIMIT 1) AS patient_id
       FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS i(device, at, ord)
      ORDER BY i.ord`,
    [items.map((i) => i.device), items.map((i) => i.at)],
  );
  return rows.map((r) => r.patient_id);
}
