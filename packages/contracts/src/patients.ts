import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp } from './common.ts';

export const GENDERS = ['male', 'female', 'other'] as const;
export const Gender = Type.Union(GENDERS.map((g) => Type.Literal(g)));
export type Gender = (typeof GENDERS)[number];

export const INSURANCE_TYPES = ['Medicare', 'Medicaid', 'Private', 'Other'] as const;
export const InsuranceType = Type.Union(INSURANCE_TYPES.map((t) => Type.Literal(t)));
export type InsuranceType = (typeof INSURANCE_TYPES)[number];

const Name = Type.String({ minLength: 1, maxLength: 100 });
const OptionalText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

export const Insurance = Type.Object({
  id: Type.Integer(),
  type: InsuranceType,
  provider_name: OptionalText(200),
  policy_number: OptionalText(100),
  policyholder: OptionalText(200),
  policyholder_birthdate: Type.Union([IsoDate, Type.Null()]),
});
export type Insurance = Static<typeof Insurance>;

export const Device = Type.Object({
  id: Type.Integer(),
  device_id: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()]),
  patient_id: Type.Union([Type.Integer(), Type.Null()]),
  patient: Type.Union([
    Type.Object({ first_name: Type.String(), last_name: Type.String(), date_of_birth: Type.Union([IsoDate, Type.Null()]) }),
    Type.Null(),
  ]),
});
export type Device = Static<typeof Device>;

export const Patient = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  middle_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.String(),
  date_of_birth: Type.Union([IsoDate, Type.Null()]),
  gender: Type.Union([Gender, Type.Null()]),
  organization_id: Type.Integer(),
  primary_provider_id: Type.Union([Type.Integer(), Type.Null()]),
  enrolled_rpm: Type.Boolean(),
  enrollment_status: Type.Union([Type.String(), Type.Null()]),
  insurances: Type.Array(Insurance),
  device_ids: Type.Array(Type.Integer()),
});
export type Patient = Static<typeof Patient>;

export const Vital = Type.Object({
  created_at: Timestamp,
  systolic: Type.Integer(),
  diastolic: Type.Integer(),
  pulse: Type.Union([Type.Integer(), Type.Null()]),
});
export type Vital = Static<typeof Vital>;

export const Note = Type.Object({ id: Type.Integer(), content: Type.String(), created_at: Timestamp });
export type Note = Static<typeof Note>;

export const TrackingSession = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  notes: Type.Union([Type.String(), Type.Null()]),
});
export type TrackingSession = Static<typeof TrackingSession>;

export const Provider = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Provider = Static<typeof Provider>;

export const Organization = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Organization = Static<typeof Organization>;

export { Name as PersonName, OptionalText };
