import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** A device with the name columns of its patient (null when it is free). */
export interface DeviceRow {
  id: number;
  device_id: string;
  model: string | null;
  type: string | null;
  patient_id: number | null;
  battery_level: number | null;
  battery_at: Date | null;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
}

const DEVICE_COLUMNS = ['d.id', 'd.device_id', 'd.model', 'd.type', 'd.patient_id', 'd.battery_level', 'd.battery_at'] as const;

function devicesWithPatient(db: Queryable) {
  return kysely(db)
    .selectFrom('devices as d')
    .leftJoin('patients as p', 'p.id', 'd.patient_id')
    .select([...DEVICE_COLUMNS, 'p.first_name', 'p.last_name', 'p.date_of_birth']);
}

/**
 * Devices with their patient. With `organizationId` set (a provider), only devices that are
 * free or assigned to a patient of that organization: the patient form needs exactly those.
 */
export async function listDevices(db: Queryable, organizationId: number | null): Promise<DeviceRow[]> {
  let q = devicesWithPatient(db);
  if (organizationId !== null) {
    q = q.where((eb) => eb.or([eb('d.patient_id', 'is', null), eb('p.organization_id', '=', organizationId)]));
  }
  return q.orderBy(sql`lower(d.device_id)`).orderBy('d.id').execute();
}

/** Null when the device id is taken (unique on the trimmed, lower-cased id). */
export async function insertDevice(
  db: Queryable,
  d: { deviceId: string; model: string | null; type: string | null },
): Promise<DeviceRow | null> {
  const inserted = await kysely(db)
    .insertInto('devices')
    .values({ device_id: d.deviceId, model: d.model, type: d.type })
    .onConflict((oc) => oc.expression(sql`(lower(btrim(device_id)))`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  return devicesWithPatient(db).where('d.id', '=', inserted.id).executeTakeFirstOrThrow();
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
  const rows = await kysely(db)
    .selectFrom('devices')
    .select(['id', 'patient_id'])
    .where((eb) => eb.or([eb('patient_id', '=', patientId), ...(deviceIds.length ? [eb('id', 'in', deviceIds)] : [])]))
    .orderBy('id')
    .forUpdate()
    .execute();
  const known = new Set(rows.map((r) => r.id));
  const unknown = deviceIds.filter((id) => !known.has(id));
  if (unknown.length) return { unknown, moved: [] };
  const moved = rows
    .filter((r) => deviceIds.includes(r.id) && r.patient_id !== null && r.patient_id !== patientId)
    .map((r) => ({ device: r.id, from: r.patient_id! }));
  let release = kysely(db).updateTable('devices').set({ patient_id: null }).where('patient_id', '=', patientId);
  if (deviceIds.length) release = release.where('id', 'not in', deviceIds);
  await release.execute();
  if (deviceIds.length) await kysely(db).updateTable('devices').set({ patient_id: patientId }).where('id', 'in', deviceIds).execute();
  return { unknown: [], moved };
}
