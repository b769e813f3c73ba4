import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp } from './common.ts';

export const Device = Type.Object({
  id: Type.Integer(),
  device_id: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()]),
  patient_id: Type.Union([Type.Integer(), Type.Null()]),
  /** Last battery level the device reported (percent), and when; null until it reports one. */
  battery_level: Type.Union([Type.Integer(), Type.Null()]),
  battery_at: Type.Union([Timestamp, Type.Null()]),
  patient: Type.Union([
    Type.Object({
      first_name: Type.String(),
      last_name: Type.String(),
      date_of_birth: Type.Union([IsoDate, Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export type Device = Static<typeof Device>;

/** A device as the patient's detail page lists it. */
export const AssignedDevice = Type.Object({
  id: Type.Integer(),
  device_id: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()]),
});
export type AssignedDevice = Static<typeof AssignedDevice>;
