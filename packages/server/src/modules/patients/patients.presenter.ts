import type { AssignedDevice, Insurance, PatientDetail, PatientListItem } from '@rpm/contracts';
import type {
  DeviceOfPatientRow,
  InsuranceRow,
  PatientDetailRow,
  PatientListRow,
} from './patients.repository.ts';
import { staffName } from '../../kernel/people.ts';

export function presentPatientListItem(row: PatientListRow): PatientListItem {
  return { ...listedFields(row), organization_name: row.organization_name };
}

/** What the list and the patient page both show of a patient. */
function listedFields(row: Omit<PatientListRow, 'organization_name'>) {
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
    enrollment_status_legacy: row.enrollment_status_legacy,
    organization_name: row.organization_name,
    primary_provider_name: staffName(
      { first_name: row.provider_first_name, last_name: row.provider_last_name, title: row.provider_title, email: row.provider_email },
      true,
    ),
    insurances: insurances.map(presentInsurance),
    devices: devices.map(presentAssignedDevice),
    device_ids: devices.map((d) => d.id),
  };
}
