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

/** The enrollment statuses a patient can have (the database refuses any other). */
export const ENROLLMENT_STATUSES = ['Active', 'Paused', 'Discharged', 'Declined'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
export const EnrollmentStatusSchema = Type.Unsafe<EnrollmentStatus>({ type: 'string', enum: [...ENROLLMENT_STATUSES] });

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
    Type.Object({
      first_name: Type.String(),
      last_name: Type.String(),
      date_of_birth: Type.Union([IsoDate, Type.Null()]),
    }),
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
  enrollment_status: Type.Union([EnrollmentStatusSchema, Type.Null()]),
  insurances: Type.Array(Insurance),
  device_ids: Type.Array(Type.Integer()),
});
export type Patient = Static<typeof Patient>;

export const Vital = Type.Object({
  created_at: Timestamp,
  /** Null on a heart rate measured alone (no blood pressure). */
  systolic: Type.Union([Type.Integer(), Type.Null()]),
  diastolic: Type.Union([Type.Integer(), Type.Null()]),
  pulse: Type.Union([Type.Integer(), Type.Null()]),
  /** The device id the reading came from, or 'manual' for one typed in by staff. */
  source: Type.String(),
});
export type Vital = Static<typeof Vital>;

/** `author`: the writer's name (or e-mail when no name is recorded); null if unknown. */
export const Note = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  created_at: Timestamp,
  author: Type.Union([Type.String(), Type.Null()]),
});
export type Note = Static<typeof Note>;

export const TrackingSession = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  notes: Type.Union([Type.String(), Type.Null()]),
  /** A real-time interactive communication with the patient or caregiver (live call or video). */
  interactive: Type.Boolean(),
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
const patientFields = {
  first_name: Type.String({ maxLength: 100 }),
  middle_name: InputText(100),
  last_name: Type.String({ maxLength: 100 }),
  date_of_birth: InputDate,
  gender: InputGender,
  organization_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  primary_provider_id: Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.Null()]),
  enrolled_rpm: Type.Boolean(),
  // '' (nothing chosen) is stored as null, like the form's other empty fields.
  enrollment_status: Type.Unsafe<EnrollmentStatus | '' | null>({ enum: [...ENROLLMENT_STATUSES, '', null] }),
};
const patientLists = {
  insurances: Type.Optional(Type.Array(InsuranceInput, { maxItems: 20 })),
  device_ids: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 50, uniqueItems: true }),
  ),
};

export const PatientInput = Type.Object(
  {
    first_name: patientFields.first_name,
    middle_name: Type.Optional(patientFields.middle_name),
    last_name: patientFields.last_name,
    date_of_birth: Type.Optional(patientFields.date_of_birth),
    gender: Type.Optional(patientFields.gender),
    organization_id: patientFields.organization_id,
    primary_provider_id: Type.Optional(patientFields.primary_provider_id),
    enrolled_rpm: Type.Optional(patientFields.enrolled_rpm),
    enrollment_status: Type.Optional(patientFields.enrollment_status),
    ...patientLists,
  },
  { additionalProperties: false },
);
export type PatientInput = Static<typeof PatientInput>;

/**
 * PUT /api/patients/{id}: every field of the patient itself is required (null or '' clears one),
 * so that a client which leaves one out gets a 400 naming it instead of a silently cleared field.
 * `insurances` and `device_ids` may still be left out to keep them unchanged.
 */
export const PatientUpdate = Type.Object({ ...patientFields, ...patientLists }, { additionalProperties: false });
export type PatientUpdate = Static<typeof PatientUpdate>;

/** A row of GET /api/patients. */
export const PatientListItem = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  middle_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.String(),
  date_of_birth: Type.Union([IsoDate, Type.Null()]),
  organization_id: Type.Integer(),
  organization_name: Type.String(),
  enrolled_rpm: Type.Boolean(),
  enrollment_status: Type.Union([EnrollmentStatusSchema, Type.Null()]),
});
export type PatientListItem = Static<typeof PatientListItem>;

export const PATIENT_SORTS = ['name', 'date_of_birth', 'status'] as const;
export type PatientSort = (typeof PATIENT_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The status filter's value for patients without a status. */
export const NO_ENROLLMENT_STATUS = 'none';
export const PATIENT_LIST_PAGE_SIZE = 25;
export const PATIENT_LIST_PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;
export const PATIENT_SEARCH_MAX_LENGTH = 100;

/**
 * GET /api/patients: one page of the patients the caller may see. `q` matches the start of the
 * first or last name (every word must match one; case and accents ignored) or, when it is a
 * date (YYYY-MM-DD, MM/DD/YYYY or a year), the date of birth.
 */
export const PatientListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: PATIENT_LIST_PAGE_SIZE })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
    q: Type.Optional(Type.String({ maxLength: PATIENT_SEARCH_MAX_LENGTH })),
    sort: Type.Optional(Type.Unsafe<PatientSort>({ type: 'string', enum: [...PATIENT_SORTS], default: 'name' })),
    order: Type.Optional(Type.Unsafe<SortOrder>({ type: 'string', enum: [...SORT_ORDERS], default: 'asc' })),
    status: Type.Optional(
      Type.Unsafe<EnrollmentStatus | typeof NO_ENROLLMENT_STATUS>({
        type: 'string',
        enum: [...ENROLLMENT_STATUSES, NO_ENROLLMENT_STATUS],
      }),
    ),
  },
  { additionalProperties: false },
);
export type PatientListQuery = Static<typeof PatientListQuery>;

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
  /** A free-text status from before the status list that matched none of its entries. */
  enrollment_status_legacy: Type.Union([Type.String(), Type.Null()]),
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
/** Minutes per calendar month (`YYYY-MM`), newest month first, for the months with entries. */
export const TrackingMonthTotal = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  minutes: Type.Integer(),
});
export type TrackingMonthTotal = Static<typeof TrackingMonthTotal>;
export const TRACKING_MONTH_TOTALS = 3;
export const TrackingSessionPage = Type.Object({
  ...PageOf(TrackingSession).properties,
  /** The last TRACKING_MONTH_TOTALS months that have entries, whatever page is shown. */
  month_totals: Type.Array(TrackingMonthTotal),
});
export type TrackingSessionPage = Static<typeof TrackingSessionPage>;
/** The patient list: one page and how many patients match in all. */
export const PatientList = PageOf(PatientListItem);
export type PatientList = Static<typeof PatientList>;

export const NOTE_MAX_LENGTH = 10_000;
export const NoteInput = Type.Object(
  { content: Type.String({ maxLength: NOTE_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type NoteInput = Static<typeof NoteInput>;

/** Also the most tracking time one patient can have in one day, all entries together. */
export const TRACKING_MAX_MINUTES = 1440;
/** A tracking entry of no time records nothing billable; the form asks for at least this. */
export const TRACKING_MIN_MINUTES = 1;
export const TrackingSessionInput = Type.Object(
  {
    date: IsoDate,
    duration_minutes: Type.Integer({ minimum: TRACKING_MIN_MINUTES, maximum: TRACKING_MAX_MINUTES }),
    notes: Type.Optional(InputText(5000)),
    interactive: Type.Optional(Type.Boolean()),
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
  /** A value the reading does not have (no blood pressure on a heart rate measured alone). */
  noValue: '—',
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
  search: 'Search patients',
  searchHelp: 'Name or date of birth (YYYY-MM-DD)',
  statusFilter: 'Status filter',
  allStatuses: 'All statuses',
  noStatus: 'No status',
  noMatches: 'No patients match your search.',
  age: 'Age',
  years: 'years',
  author: 'Author',
  unknownAuthor: 'Unknown author',
  monthlyTotals: 'Monthly total',
  minutesShort: 'min',
  previousStatus: 'Status before the status list',
  devicesSearch: 'Search devices',
  readingLegend: 'Readings marked',
  readingHigh: 'High',
  readingHighRule: 'above 140/90',
  readingCritical: 'Critical',
  readingCriticalRule: 'above 180/120',
} as const;

/** Blood pressure marks of the vitals table (ACC/AHA-based, as the alert defaults). */
export const BP_HIGH = { systolic: 140, diastolic: 90 } as const;
export const BP_CRITICAL = { systolic: 180, diastolic: 120 } as const;
export type ReadingLevel = 'normal' | 'high' | 'critical';
/** "Above 140/90": either number above its limit; critical the same above 180/120. */
export function readingLevel(systolic: number, diastolic: number): ReadingLevel {
  if (systolic > BP_CRITICAL.systolic || diastolic > BP_CRITICAL.diastolic) return 'critical';
  if (systolic > BP_HIGH.systolic || diastolic > BP_HIGH.diastolic) return 'high';
  return 'normal';
}
