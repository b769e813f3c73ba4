import type { Device } from '@rpm/contracts';
import type { DeviceRow } from './devices.repository.ts';
import { isoTime } from '../../kernel/time.ts';

/** A device with the name and birth date of the patient who has it, if any. */
export function presentDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    device_id: row.device_id,
    model: row.model,
    type: row.type,
    patient_id: row.patient_id,
    battery_level: row.battery_level,
    battery_at: isoTime(row.battery_at),
    patient:
      row.patient_id === null
        ? null
        : { first_name: row.first_name ?? '', last_name: row.last_name ?? '', date_of_birth: row.date_of_birth },
  };
}
