import type { AssignedDevice, EnrollmentStatus, Insurance, PatientDetail, PatientListItem, PatientSort, SortOrder } from '@rpm/contracts';
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
  enrollment_status: EnrollmentStatus | null;
}

export type InsuranceRow = Omit<Insurance, 'id'>;

export interface PatientListFilter {
  /** null: every organization (admins). */
  organizationId: number | null;
  /** Already split into words; each must match the start of the first or the last name. */
  nameWords: string[];
  /** Date-of-birth range [from, to] (one day, or one year), when the search was a date. */
  birthRange: { from: string; to: string } | null;
  /** A status of the list, or null for "no status"; undefined: any. */
  status?: string | null;
  sort: PatientSort;
  order: SortOrder;
  limit: number;
  offset: number;
}

const ORDER_BY: Record<PatientSort, string> = {
  name: 'p.last_name_key {dir}, p.first_name_key {dir}, p.id {dir}',
  date_of_birth: 'p.date_of_birth {dir} NULLS LAST, p.last_name_key, p.first_name_key, p.id',
  status: 'p.enrollment_status {dir} NULLS LAST, p.last_name_key, p.first_name_key, p.id',
};

/** LIKE treats % and _ as wildcards and \\ as the escape: a typed one must match itself. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of patients and the number that match. Every condition is a range of an index from
 * migration 0760 (name prefixes, date of birth, organization, status); the words are folded by
 * the same SQL function as the indexed columns.
 */
export async function listPatients(db: Queryable, f: PatientListFilter): Promise<{ items: PatientListItem[]; total: number }> {
  const params: unknown[] = [];
  const bind = (v: unknown) => `$${params.push(v)}`;
  const where: string[] = [];
  if (f.organizationId !== null) where.push(`p.organization_id = ${bind(f.organizationId)}`);
  for (const word of f.nameWords) {
    const w = bind(`${escapeLike(word)}%`);
    where.push(`(p.first_name_key LIKE patient_search_fold(${w}) OR p.last_name_key LIKE patient_search_fold(${w}))`);
  }
  if (f.birthRange) where.push(`p.date_of_birth BETWEEN ${bind(f.birthRange.from)} AND ${bind(f.birthRange.to)}`);
  if (f.status === null) where.push('p.enrollment_status IS NULL');
  else if (f.status !== undefined) where.push(`p.enrollment_status = ${bind(f.status)}`);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const dir = f.order === 'desc' ? 'DESC' : 'ASC';
  const orderBy = ORDER_BY[f.sort].replaceAll('{dir}', dir);

  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM patients p ${filter}`, params);
  // The offset is walked over ids only (an index-only scan for the name sort), then the page's
  // rows and their organization's name are read for those ids alone.
  const { rows } = await db.query<PatientListItem>(
    `SELECT p.id, p.first_name, p.middle_name, p.last_name, p.date_of_birth, p.organization_id,
            o.name AS organization_name, p.enrolled_rpm, p.enrollment_status
       FROM (SELECT p.id FROM patients p ${filter}
              ORDER BY ${orderBy}
              LIMIT ${bind(f.limit)} OFFSET ${bind(f.offset)}) page
       JOIN patients p ON p.id = page.id
       JOIN organizations o ON o.id = p.organization_id
      ORDER BY ${orderBy}`,
    params,
  );
  return { items: rows, total: total.rows[0]!.n };
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
       -- A status chosen from the list replaces the free text kept from before it.
       enrollment_status_legacy = CASE WHEN $10::text IS NULL THEN enrollment_status_legacy END,
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
            p.primary_provider_id, p.enrolled_rpm, p.enrollment_status, p.enrollment_status_legacy,
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
