import type { Device } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

interface DeviceRow {
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

const toDevice = (r: DeviceRow): Device => ({
  id: r.id,
  device_id: r.device_id,
  model: r.model,
  type: r.type,
  patient_id: r.patient_id,
  battery_level: r.battery_level,
  battery_at: r.battery_at?.toISOString() ?? null,
  patient:
    r.patient_id === null
      ? null
      : { first_name: r.first_name ?? '', last_name: r.last_name ?? '', date_of_birth: r.date_of_birth },
});

/**
 * Devices with their patient. With `organizationId` set (a provider), only devices that are
 * free or assigned to a patient of that organization: the patient form needs exactly those.
 */
export async function listDevices(db: Queryable, organizationId: number | null): Promise<Device[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT d.id, d.device_id, d.model, d.type, d.patient_id, d.battery_level, d.battery_at, p.first_name, p.last_name, p.date_of_birth
       FROM devices d
       LEFT JOIN patients p ON p.id = d.patient_id
      WHERE $1::int IS NULL OR d.patient_id IS NULL OR p.organization_id = $1
      ORDER BY lower(d.device_id), d.id`,
    [organizationId],
  );
  return rows.map(toDevice);
}

/** Null when the device id is taken (unique on the trimmed, lower-cased id). */
export async function insertDevice(
  db: Queryable,
  d: { deviceId: string; model: string | null; type: string | null },
): Promise<Device | null> {
  const { rows } = await db.query<DeviceRow>(
    `INSERT INTO devices (device_id, model, type) VALUES ($1, $2, $3)
     ON CONFLICT ((lower(btrim(device_id)))) DO NOTHING
     RETURNING id, device_id, model, type, patient_id, battery_level, battery_at,
               NULL::text AS first_name, NULL::text AS last_name, NULL::date AS date_of_birth`,
    [d.deviceId, d.model, d.type],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}
