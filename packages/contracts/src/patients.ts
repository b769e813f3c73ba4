import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp } from './common.ts';
import { MAX_PAGE_LIMIT } from './constants.ts';

export const GENDERS = ['male', 'female', 'other'] as const;
export const Gender = Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')]);
export type Gender = (typeof GENDERS)[number];

export const INSURANCE_TYPES = ['Medicare', 'Medicaid', 'Private', 'Other'] as const;
export const InsuranceType = Type.Union([
  Type.Literal('Medicare'),
  Type.Literal('Medicaid'),
  Type.Literal('Private'),
  Type.Literal('Other'),
]);
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
  /** Last battery level the device reported (percent), and when; null until it reports one. */
  battery_level: Type.Union([Type.Integer(), Type.Null()]),
  battery_at: Type.Union([Timestamp, Type.Null()]),
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
  /** The device id the reading came from, or 'manual' for one typed in by staff. */
  source: Type.String(),
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

/* ---- Request bodies and answers of the patient API ---- */

/** Free text a form may send empty: the server stores '' as null. */
const InputText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
const InputDate = Type.Union([IsoDate, Type.Literal(''), Type.Null()]);
// Plain `enum` schemas: a bad value gets one clear "must be equal to one of the allowed values".
const InputInsuranceType = Type.Unsafe<InsuranceType>({ type: 'string', enum: [...INSURANCE_TYPES] });
const InputGender = Type.Unsafe<Gender | null>({ enum: [...GENDERS, null] });

export const InsuranceInput = Type.Object(
  {
    type: InputInsuranceType,
    provider_name: Type.Optional(InputText(200)),
    policy_number: Type.Optional(InputText(100)),
    // Only for Private insurance; any other type with a non-empty value is refused.
    policyholder: Type.Optional(InputText(200)),
    policyholder_birthdate: Type.Optional(InputDate),
  },
  { additionalProperties: false },
);
export type InsuranceInput = Static<typeof InsuranceInput>;

/**
 * POST /api/patients and PUT /api/patients/{id}. Names accept any string up to 100 characters so
 * that a blank one gets the form's own message rather than a schema error. On PUT, an omitted
 * `insurances` or `device_ids` leaves that part unchanged; a given list replaces it.
 */
export const PatientInput = Type.Object(
  {
    first_name: Type.String({ maxLength: 100 }),
    middle_name: Type.Optional(InputText(100)),
    last_name: Type.String({ maxLength: 100 }),
    date_of_birth: Type.Optional(InputDate),
    gender: Type.Optional(InputGender),
    organization_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    primary_provider_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.Null()])),
    enrolled_rpm: Type.Optional(Type.Boolean()),
    enrollment_status: Type.Optional(InputText(50)),
    insurances: Type.Optional(Type.Array(InsuranceInput, { maxItems: 20 })),
    device_ids: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 50, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);
export type PatientInput = Static<typeof PatientInput>;

/** A row of GET /api/patients. */
export const PatientListItem = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  middle_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.String(),
  date_of_birth: Type.Union([IsoDate, Type.Null()]),
  organization_id: Type.Integer(),
  enrolled_rpm: Type.Boolean(),
  enrollment_status: Type.Union([Type.String(), Type.Null()]),
});
export type PatientListItem = Static<typeof PatientListItem>;
export const PatientList = Type.Array(PatientListItem);

export const AssignedDevice = Type.Object({
  id: Type.Integer(),
  device_id: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()]),
});
export type AssignedDevice = Static<typeof AssignedDevice>;

/** GET /api/patients/{id}: the patient body plus the names the detail page shows. */
export const PatientDetail = Type.Object({
  ...Patient.properties,
  organization_name: Type.Union([Type.String(), Type.Null()]),
  primary_provider_name: Type.Union([Type.String(), Type.Null()]),
  devices: Type.Array(AssignedDevice),
});
export type PatientDetail = Static<typeof PatientDetail>;

export const InsuranceList = Type.Array(Insurance);

/** `limit` (default 10, at most 100) and `offset` (default 0) of the paged patient lists. */
export const PatientPageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type PatientPageQuery = Static<typeof PatientPageQuery>;

/** Newest first; `total` counts every item of the patient, for the table's pager. */
export const PageOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer() });
export const VitalPage = PageOf(Vital);
export type VitalPage = Static<typeof VitalPage>;
export const NotePage = PageOf(Note);
export type NotePage = Static<typeof NotePage>;
export const TrackingSessionPage = PageOf(TrackingSession);
export type TrackingSessionPage = Static<typeof TrackingSessionPage>;

export const NOTE_MAX_LENGTH = 10_000;
export const NoteInput = Type.Object(
  { content: Type.String({ maxLength: NOTE_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type NoteInput = Static<typeof NoteInput>;

export const TRACKING_MAX_MINUTES = 1440;
/** A tracking entry of no time records nothing billable; the form asks for at least this. */
export const TRACKING_MIN_MINUTES = 1;
export const TrackingSessionInput = Type.Object(
  {
    date: IsoDate,
    duration_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: TRACKING_MAX_MINUTES, default: 0 })),
    notes: Type.Optional(InputText(5000)),
  },
  { additionalProperties: false },
);
export type TrackingSessionInput = Static<typeof TrackingSessionInput>;

/** The chart's data: the newest readings of the last `days` days, oldest first, as columns. */
export const VITAL_SERIES_MAX_POINTS = 10_000;
export const VitalSeriesQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660, default: 90 })) },
  { additionalProperties: false },
);
export type VitalSeriesQuery = Static<typeof VitalSeriesQuery>;
export const VitalSeries = Type.Object({
  /** Seconds since the epoch (UTC). */
  t: Type.Array(Type.Number()),
  systolic: Type.Array(Type.Integer()),
  diastolic: Type.Array(Type.Integer()),
});
export type VitalSeries = Static<typeof VitalSeries>;

/** Texts of the patient screens beyond the spec's own (column heads, field labels, states). */
export const PatientTexts = {
  listTitle: 'Patients',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  status: 'Status',
  actions: 'Actions',
  noPatients: 'No patients yet.',
  failedToLoadPatients: 'Failed to load patients',
  failedToLoadPatient: 'Failed to load patient',
  dateOfBirth: 'Date of birth',
  gender: 'Gender',
  organization: 'Organization',
  primaryProvider: 'Primary provider',
  provider: 'Provider',
  enrollmentStatus: 'Enrollment status',
  none: 'None',
  insurance: 'Insurance',
  addInsurance: 'Add insurance',
  removeInsurance: 'Remove insurance',
  type: 'Type',
  insuranceProvider: 'Provider',
  policyNumber: 'Policy number',
  policyholder: 'Policyholder',
  policyholderBirthdate: 'Policyholder birthdate',
  noInsurance: 'No insurance on file.',
  devices: 'Devices',
  assignedDevices: 'Assigned devices',
  noDevices: 'No devices assigned.',
  deviceMovesNote: 'A device assigned to another patient moves to this one when you save.',
  saveFailed: 'Failed to save patient',
  saved: 'Patient saved',
  cancel: 'Cancel',
  vitals: 'Vitals',
  time: 'Time',
  systolic: 'Systolic',
  diastolic: 'Diastolic',
  pulse: 'Pulse',
  noVitals: 'No readings yet.',
  failedToLoadVitals: 'Failed to load vitals',
  chartLabel: 'Blood pressure chart',
  loadingChart: 'Loading chart',
  clinicalNotes: 'Clinical Notes',
  noteContent: 'Content',
  noNotes: 'No notes yet.',
  failedToLoadNotes: 'Failed to load notes',
  noteAdded: 'Note added',
  noteFailed: 'Failed to add note',
  date: 'Date',
  minutes: 'Minutes',
  notes: 'Notes',
  noTracking: 'No tracking time yet.',
  failedToLoadTracking: 'Failed to load tracking time',
  trackingAdded: 'Tracking time added',
  trackingFailed: 'Failed to add tracking time',
  yes: 'Yes',
  no: 'No',
  gender_male: 'Male',
  gender_female: 'Female',
  gender_other: 'Other',
} as const;
