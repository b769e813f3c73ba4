import {
  Validation,
  allowsPolicyholder,
  consentDateText,
  diagnosisCodesText,
  splitDiagnosisCodes,
  blankToNull,
  formList,
  formSchema,
  requiredText,
  type EnrollmentStatus,
  type Gender,
  type InsuranceType,
  type PatientDetail,
  type PatientUpdate,
} from '@rpm/contracts';

/** The form holds text everywhere (what inputs hold); conversion happens once, on submit. */
export interface InsuranceFormValues {
  type: InsuranceType | '';
  provider_name: string;
  policy_number: string;
  policyholder: string;
  policyholder_birthdate: string;
}

export interface PatientFormValues {
  first_name: string;
  middle_name: string;
  last_name: string;
  date_of_birth: string;
  gender: Gender | '';
  organization_id: string;
  primary_provider_id: string;
  enrolled_rpm: boolean;
  enrollment_status: EnrollmentStatus | '';
  ordering_provider_id: string;
  consent_date: string;
  /** Codes as typed, separated by commas. */
  diagnosis_codes: string;
  /** The patient's identifier in the organization's EHR. */
  mrn: string;
  insurances: InsuranceFormValues[];
  device_ids: number[];
}

/** The form's rules (fields not named here have none). */
export const PatientFormSchema = formSchema({
  first_name: requiredText(Validation.firstNameRequired),
  last_name: requiredText(Validation.lastNameRequired),
  organization_id: requiredText(Validation.organizationRequired),
  consent_date: consentDateText(),
  diagnosis_codes: diagnosisCodesText(),
  insurances: formList({
    type: requiredText(Validation.insuranceType),
    provider_name: requiredText(Validation.insuranceProvider),
    policy_number: requiredText(Validation.insurancePolicyNumber),
  }),
});

export const emptyPatientForm = (organizationId: number | null): PatientFormValues => ({
  first_name: '',
  middle_name: '',
  last_name: '',
  date_of_birth: '',
  gender: '',
  organization_id: organizationId === null ? '' : String(organizationId),
  primary_provider_id: '',
  enrolled_rpm: false,
  enrollment_status: '',
  ordering_provider_id: '',
  consent_date: '',
  diagnosis_codes: '',
  mrn: '',
  insurances: [],
  device_ids: [],
});

export function toFormValues(p: PatientDetail): PatientFormValues {
  return {
    first_name: p.first_name,
    middle_name: p.middle_name ?? '',
    last_name: p.last_name,
    date_of_birth: p.date_of_birth ?? '',
    gender: p.gender ?? '',
    organization_id: String(p.organization_id),
    primary_provider_id: p.primary_provider_id === null ? '' : String(p.primary_provider_id),
    enrolled_rpm: p.enrolled_rpm,
    enrollment_status: p.enrollment_status ?? '',
    ordering_provider_id: p.ordering_provider_id === null ? '' : String(p.ordering_provider_id),
    consent_date: p.consent_date ?? '',
    diagnosis_codes: p.diagnosis_codes.join(', '),
    mrn: p.mrn ?? '',
    insurances: p.insurances.map((i) => ({
      type: i.type,
      provider_name: i.provider_name ?? '',
      policy_number: i.policy_number ?? '',
      policyholder: i.policyholder ?? '',
      policyholder_birthdate: i.policyholder_birthdate ?? '',
    })),
    device_ids: p.device_ids,
  };
}

/**
 * The request body. Empty strings become null (spec section 5); policyholder fields are sent
 * only for Private insurance; device_ids only when the device section was shown (admins), so
 * a provider's save never touches device assignments.
 */
export function toPatientInput(v: PatientFormValues, includeDevices: boolean): PatientUpdate {
  // Every field of the patient, always: the server requires them all on a save (PUT).
  const body: PatientUpdate = {
    first_name: v.first_name.trim(),
    middle_name: blankToNull(v.middle_name),
    last_name: v.last_name.trim(),
    date_of_birth: blankToNull(v.date_of_birth),
    gender: v.gender === '' ? null : v.gender,
    organization_id: Number(v.organization_id),
    primary_provider_id: v.primary_provider_id === '' ? null : Number(v.primary_provider_id),
    enrolled_rpm: v.enrolled_rpm,
    enrollment_status: v.enrollment_status === '' ? null : v.enrollment_status,
    ordering_provider_id: v.ordering_provider_id === '' ? null : Number(v.ordering_provider_id),
    consent_date: blankToNull(v.consent_date),
    diagnosis_codes: splitDiagnosisCodes(v.diagnosis_codes),
    mrn: blankToNull(v.mrn),
    insurances: v.insurances.map((i) => {
      const isPrivate = allowsPolicyholder(i.type);
      return {
        type: i.type as InsuranceType,
        provider_name: blankToNull(i.provider_name),
        policy_number: blankToNull(i.policy_number),
        policyholder: isPrivate ? blankToNull(i.policyholder) : null,
        policyholder_birthdate: isPrivate ? blankToNull(i.policyholder_birthdate) : null,
      };
    }),
  };
  if (includeDevices) body.device_ids = v.device_ids;
  return body;
}
