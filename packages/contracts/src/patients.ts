import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp, RowId } from './common.ts';
import { MAX_PAGE_LIMIT } from './constants.ts';
import { AssignedDevice } from './devices.ts';
import { InputDate, InputText, PageOf } from './fields.ts';
import { Insurance, InsuranceInput } from './insurances.ts';

/** The longest MRN kept: EHR identifiers are short (Epic and Cerner MRNs are under 20 characters). */
export const MRN_MAX_LENGTH = 64;

export const GENDERS = ['male', 'female', 'other'] as const;
export const Gender = Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')]);
export type Gender = (typeof GENDERS)[number];

/** The enrollment statuses a patient can have (the database refuses any other). */
export const ENROLLMENT_STATUSES = ['Active', 'Paused', 'Discharged', 'Declined'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
export const EnrollmentStatusSchema = Type.Unsafe<EnrollmentStatus>({ type: 'string', enum: [...ENROLLMENT_STATUSES] });

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
  /** Who ordered the monitoring: a provider of the patient's organization. */
  ordering_provider_id: Type.Union([Type.Integer(), Type.Null()]),
  /** When the patient consented to remote monitoring. */
  consent_date: Type.Union([IsoDate, Type.Null()]),
  /** ICD-10-CM codes, upper case with their dot (I10, E11.9). */
  diagnosis_codes: Type.Array(Type.String()),
  insurances: Type.Array(Insurance),
  device_ids: Type.Array(Type.Integer()),
  /**
   * The patient's identifier in the organization's EHR (its system: the organization's setting).
   * The server always sends it; optional for clients and fixtures written before it.
   */
  mrn: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Patient = Static<typeof Patient>;

/* ---- Request bodies and answers of the patient API ---- */

const InputGender = Type.Unsafe<Gender | null>({ enum: [...GENDERS, null] });

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
  organization_id: RowId(),
  primary_provider_id: Type.Union([RowId(), Type.Null()]),
  enrolled_rpm: Type.Boolean(),
  // '' (nothing chosen) is stored as null, like the form's other empty fields.
  enrollment_status: Type.Unsafe<EnrollmentStatus | '' | null>({ enum: [...ENROLLMENT_STATUSES, '', null] }),
};
/**
 * The evidence fields (ordering provider, consent date, diagnoses) are optional on POST and PUT
 * alike: a client that does not know them leaves them unchanged. Codes are checked by the server
 * one by one (each bad one is named), so the schema only bounds their size.
 */
const evidenceFields = {
  ordering_provider_id: Type.Optional(Type.Union([RowId(), Type.Null()])),
  consent_date: Type.Optional(InputDate),
  diagnosis_codes: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 50 })),
  // Optional on PUT as well: a client that does not know the MRN leaves it unchanged; '' or null clears it.
  mrn: Type.Optional(InputText(MRN_MAX_LENGTH)),
};
const patientLists = {
  insurances: Type.Optional(Type.Array(InsuranceInput, { maxItems: 20 })),
  device_ids: Type.Optional(Type.Array(RowId(), { maxItems: 50, uniqueItems: true })),
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
    ...evidenceFields,
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
export const PatientUpdate = Type.Object({ ...patientFields, ...evidenceFields, ...patientLists }, { additionalProperties: false });
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
  /** The newest reading of any kind. */
  last_reading_at: Type.Union([Timestamp, Type.Null()]),
  /** Alerts not resolved (open or acknowledged). */
  open_alerts: Type.Integer(),
  /** Tracked minutes of the current calendar month, in the organization's time zone. */
  minutes_this_month: Type.Integer(),
  /** Days of the current month with device data that counts for billing (not typed in, physiologic kinds). */
  device_days_this_month: Type.Integer(),
});
export type PatientListItem = Static<typeof PatientListItem>;

export const PATIENT_SORTS = [
  'name',
  'date_of_birth',
  'status',
  'last_reading',
  'open_alerts',
  'minutes_this_month',
  'device_days_this_month',
] as const;
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

/** The patient list: one page and how many patients match in all. */
export const PatientList = PageOf(PatientListItem);
export type PatientList = Static<typeof PatientList>;

/** GET /api/patients/{id}: the patient body plus the names the detail page shows. */
export const PatientDetail = Type.Object({
  ...Patient.properties,
  organization_name: Type.Union([Type.String(), Type.Null()]),
  primary_provider_name: Type.Union([Type.String(), Type.Null()]),
  ordering_provider_name: Type.Union([Type.String(), Type.Null()]),
  /** A free-text status from before the status list that matched none of its entries. */
  enrollment_status_legacy: Type.Union([Type.String(), Type.Null()]),
  devices: Type.Array(AssignedDevice),
});
export type PatientDetail = Static<typeof PatientDetail>;
