import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { insertDevice } from '../../../src/modules/devices/devices.repository.ts';
import { momentSql, unique, type Moment } from './common.ts';

export interface DeviceOptions {
  deviceId?: string;
  model?: string | null;
  type?: string | null;
  /** Assigns the device to this patient (the database opens the assignment, from now). */
  patientId?: number | null;
  /** When the assignment started, for readings measured before today. */
  assignedFrom?: Moment;
}

export async function buildDevice(db: Queryable, d: DeviceOptions = {}): Promise<number> {
  const deviceId = d.deviceId ?? unique('DEV');
  const row = await insertDevice(db, { deviceId, model: d.model ?? null, type: d.type ?? null });
  if (!row) throw new Error(`a device ${deviceId} exists already`);
  if (d.patientId != null) await assignDevice(db, row.id, d.patientId, d.assignedFrom);
  return row.id;
}

/** A device by its row id or by its identifier (what the device cloud sends). */
export type DeviceRef = number | string;

async function rowIdOf(db: Queryable, device: DeviceRef): Promise<number> {
  if (typeof device === 'number') return device;
  const row = await kysely(db)
    .selectFrom('devices')
    .select('id')
    .where('device_id', '=', device)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Gives the device to the patient, as saving a patient with it does; `from` back-dates it. */
export async function assignDevice(db: Queryable, device: DeviceRef, patientId: number, from?: Moment): Promise<void> {
  const id = await rowIdOf(db, device);
  await kysely(db).updateTable('devices').set({ patient_id: patientId }).where('id', '=', id).execute();
  if (from !== undefined) {
    await kysely(db)
      .updateTable('device_assignments')
      .set({ assigned_from: momentSql(from) })
      .where('device_id', '=', id)
      .where('assigned_to', 'is', null)
      .execute();
  }
}

/** Takes the device back from its patient (the database closes the assignment, now). */
export async function unassignDevice(db: Queryable, device: DeviceRef): Promise<void> {
  const id = await rowIdOf(db, device);
  await kysely(db).updateTable('devices').set({ patient_id: null }).where('id', '=', id).execute();
}

/** Dates the end of a device's closed assignment back to `at` (the owner repairs history: give the owner's pool). */
export async function dateAssignmentEnd(db: Queryable, deviceId: number, at: Moment): Promise<void> {
  await kysely(db)
    .updateTable('device_assignments')
    .set({ assigned_to: momentSql(at) })
    .where('device_id', '=', deviceId)
    .execute();
}
