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

/** Gives the device to the patient, as saving a patient with it does; `from` back-dates it. */
export async function assignDevice(db: Queryable, deviceId: number, patientId: number, from?: Moment): Promise<void> {
  await kysely(db).updateTable('devices').set({ patient_id: patientId }).where('id', '=', deviceId).execute();
  if (from !== undefined) {
    await kysely(db)
      .updateTable('device_assignments')
      .set({ assigned_from: momentSql(from) })
      .where('device_id', '=', deviceId)
      .where('assigned_to', 'is', null)
      .execute();
  }
}
