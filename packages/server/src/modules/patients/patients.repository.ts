import type { AssignedDevice, Insurance, PatientDetail, PatientListItem } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

/** A patient's own columns, already normalized by the service (trimmed, '' as null). */
export interface PatientRow {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  gender: string | null;
  organization_id: number;
  primary_provider_id: number | null;
  enrolled_rpm: boolean;
  enrollment_status: string | null;
}

export type InsuranceRow = Omit<Insurance, 'id'>;

const LIST_COLUMNS = `id, first_name, middle_name, last_name, date_of_birth, organization_id, enrolled_rpm, enrollment_status`;

/** `organizationId` null lists every organization (admins). */
export async function listPatients(db: Queryable, organizationId: number | null): Promise<PatientListItem[]> {
  const { rows } = await db.query<PatientListItem>(
    `SELECT ${LIST_COLUMNS} FROM patients
      WHERE ($1::int IS NULL OR organization_id = $1)
      ORDER BY last_name, first_name, id`,
    [organizationId],
  );
  return rows;
}

/** The patient columns in the order insertPatient and updatePatient bind them. */
function patientValues(p: PatientRow): unknown[] {
  return [
    p.first_name,
    p.middle_name,
    p.last_name,
    p.date_of_birth,
    p.gender,
    p.organization_id,
    p.primary_provider_id,
    p.enrolled_rpm,
    p.enrollment_status,
  ];
}

export async function insertPatient(db: Queryable, p: PatientRow): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO patients (first_name, middle_name, last_name, date_of_birth, gender, organization_id,
       primary_provider_id, enrolled_rpm, enrollment_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    patientValues(p),
  );
  return rows[0]!.id;
}

export async function updatePatient(db: Queryable, id: number, p: PatientRow): Promise<void> {
  await db.query(
    `UPDATE patients SET first_name = $2, middle_name = $3, last_name = $4, date_of_birth = $5, gender = $6,
       organization_id = $7, primary_provider_id = $8, enrolled_rpm = $9, enrollment_status = $10,
       updated_at = now()
     WHERE id = $1`,
    [id, ...patientValues(p)],
  );
}

export async function findPatientRow(db: Queryable, id: number): Promise<(PatientRow & { id: number }) | null> {
  const { rows } = await db.query<PatientRow & { id: number }>(
    `SELECT id, first_name, middle_name, last_name, date_of_birth, gender, organization_id,
            primary_provider_id, enrolled_rpm, enrollment_status
       FROM patients WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The patient with insurances, devices and the names of organization and provider. */
export async function findPatientDetail(db: Queryable, id: number): Promise<PatientDetail | null> {
  const { rows } = await db.query<Omit<PatientDetail, 'insurances' | 'devices' | 'device_ids'>>(
    `SELECT p.id, p.first_name, p.middle_name, p.last_name, p.date_of_birth, p.gender, p.organization_id,
            p.primary_provider_id, p.enrolled_rpm, p.enrollment_status,
            o.name AS organization_name,
            NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '')
              || CASE WHEN NULLIF(btrim(u.title), '') IS NULL THEN '' ELSE ', ' || btrim(u.title) END
              AS primary_provider_name_raw,
            u.email AS provider_email
       FROM patients p
       JOIN organizations o ON o.id = p.organization_id
       LEFT JOIN users u ON u.id = p.primary_provider_id
      WHERE p.id = $1`,
    [id],
  );
  const row = rows[0] as (Record<string, unknown> & Omit<PatientDetail, 'insurances' | 'devices' | 'device_ids'>) | undefined;
  if (!row) return null;
  const { primary_provider_name_raw, provider_email, ...patient } = row;
  const [insurances, devices] = await Promise.all([listInsurances(db, id), listPatientDevices(db, id)]);
  return {
    ...patient,
    // A provider without a recorded name is still identifiable by their email.
    primary_provider_name: (primary_provider_name_raw as string | null) ?? (provider_email as string | null) ?? null,
    insurances,
    devices,
    device_ids: devices.map((d) => d.id),
  };
}

export async function listInsurances(db: Queryable, patientId: number): Promise<Insurance[]> {
  const { rows } = await db.query<Insurance>(
    `SELECT id, type, provider_name, policy_number, policyholder, policyholder_birthdate
       FROM insurances WHERE patient_id = $1 ORDER BY id`,
    [patientId],
  );
  return rows;
}

/** The insurance list is replaced as a whole: the form always sends the full set. */
export async function replaceInsurances(db: Queryable, patientId: number, items: InsuranceRow[]): Promise<void> {
  await db.query('DELETE FROM insurances WHERE patient_id = $1', [patientId]);
  for (const i of items) {
    await db.query(
      `INSERT INTO insurances (patient_id, type, provider_name, policy_number, policyholder, policyholder_birthdate)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [patientId, i.type, i.provider_name, i.policy_number, i.policyholder, i.policyholder_birthdate],
    );
  }
}

export async function listPatientDevices(db: Queryable, patientId: number): Promise<AssignedDevice[]> {
  const { rows } = await db.query<AssignedDevice>(
    'SELECT id, device_id, model, type FROM devices WHERE patient_id = $1 ORDER BY id',
    [patientId],
  );
  return rows;
}

export async function currentDeviceIds(db: Queryable, patientId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM devices WHERE patient_id = $1 ORDER BY id', [
    patientId,
  ]);
  return rows.map((r) => r.id);
}

/**
 * Makes `deviceIds` exactly the patient's devices. A device assigned to someone else moves here
 * (devices.patient_id is one column, so it can never belong to two patients). Rows are locked
 * first so two concurrent saves cannot interleave. Returns the ids that do not exist, and which
 * devices moved from which patient (for the audit record).
 */
export async function setPatientDevices(
  db: Queryable,
  patientId: number,
  deviceIds: number[],
): Promise<{ unknown: number[]; moved: { device: number; from: number }[] }> {
  const { rows } = await db.query<{ id: number; patient_id: number | null }>(
    'SELECT id, patient_id FROM devices WHERE id = ANY($1::int[]) OR patient_id = $2 ORDER BY id FOR UPDATE',
    [deviceIds, patientId],
  );
  const known = new Set(rows.map((r) => r.id));
  const unknown = deviceIds.filter((id) => !known.has(id));
  if (unknown.length) return { unknown, moved: [] };
  const moved = rows
    .filter((r) => deviceIds.includes(r.id) && r.patient_id !== null && r.patient_id !== patientId)
    .map((r) => ({ device: r.id, from: r.patient_id! }));
  await db.query('UPDATE devices SET patient_id = NULL WHERE patient_id = $1 AND NOT (id = ANY($2::int[]))', [
    patientId,
    deviceIds,
  ]);
  await db.query('UPDATE devices SET patient_id = $1 WHERE id = ANY($2::int[])', [patientId, deviceIds]);
  return { unknown: [], moved };
}

export async function organizationExists(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM organizations WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/** True when the user is an active provider of that organization (who may be a primary provider). */
export async function isActiveProviderOf(db: Queryable, userId: number, organizationId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM users WHERE id = $1 AND organization_id = $2 AND role = 'provider' AND status = 'active'`,
    [userId, organizationId],
  );
  return (rowCount ?? 0) > 0;
}
