import type { AssignedDevice, Insurance, PatientDetail, PatientListItem } from '@rpm/contracts';
import type {
  DeviceOfPatientRow,
  InsuranceRow,
  PatientDetailRow,
  PatientListRow,
} from './patients.repository.ts';
import { staffName } from '../../kernel/people.ts';

export function presentPatientListItem(row: PatientListRow): PatientListItem {
  return {
    ...listedFields(row),
    organization_name: row.organization_name,
    last_reading_at: row.last_reading_at === null ? null : new Date(row.last_reading_at).toISOString(),
    open_alerts: row.open_alerts,
    minutes_this_month: row.minutes_this_month,
    device_days_this_month: row.device_days_this_month,
  };
}

type ListedRow = Pick<
  PatientListRow,
  'id' | 'first_name' | 'middle_name' | 'last_name' | 'date_of_birth' | 'organization_id' | 'enrolled_rpm' | 'enrollment_status'
>;

/** What the list and the patient page both show of a patient. */
function listedFields(row: ListedRow) {
  const { id, first_name, middle_name, last_name, date_of_birth, organization_id, enrolled_rpm, enrollment_status } = row;
  return { id, first_name, middle_name, last_name, date_of_birth, organization_id, enrolled_rpm, enrollment_status };
}

export function presentInsurance(row: InsuranceRow & { id: number }): Insurance {
  return {
    id: row.id,
    type: row.type,
    provider_name: row.provider_name,
    policy_number: row.policy_number,
    policyholder: row.policyholder,
    policyholder_birthdate: row.policyholder_birthdate,
  };
}

export function presentAssignedDevice(row: DeviceOfPatientRow): AssignedDevice {
  return { id: row.id, device_id: row.device_id, model: row.model, type: row.type };
}

/** The patient page: the patient, its insurances and devices, and whom the ids name. */
export function presentPatientDetail(
  row: PatientDetailRow,
  insurances: (InsuranceRow & { id: number })[],
  devices: DeviceOfPatientRow[],
): PatientDetail {
  return {
    ...listedFields(row),
    gender: row.gender,
    primary_provider_id: row.primary_provider_id,
    ordering_provider_id: row.ordering_provider_id,
    consent_date: row.consent_date,
    diagnosis_codes: row.diagnosis_codes,
    enrollment_status_legacy: row.enrollment_status_legacy,
    mrn: row.mrn,
    organization_name: row.organization_name,
    primary_provider_name: staffName(
      { first_name: row.provider_first_name, last_name: row.provider_last_name, title: row.provider_title, email: row.provider_email },
      true,
    ),
    ordering_provider_name: staffName(
      { first_name: row.ordering_first_name, last_name: row.ordering_last_name, title: row.ordering_title, email: row.ordering_email },
      true,
    ),
    insurances: insurances.map(presentInsurance),
    devices: devices.map(presentAssignedDevice),
    device_ids: devices.map((d) => d.id),
  };
}
