import type {
  Bundle,
  BundleEntry,
  CapabilityStatement,
  Device,
  Observation,
  ObservationComponent,
  OperationOutcome,
  Patient,
} from '@medplum/fhirtypes';
import { MANUAL_SOURCE } from '@rpm/contracts';
import type { DeviceRow } from '../devices/index.ts';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const LOINC_BP_PANEL = '85354-9';
export const LOINC_SYSTOLIC = '8480-6';
export const LOINC_DIASTOLIC = '8462-4';
export const LOINC_HEART_RATE = '8867-4';
/** The system of the portal's device ids in Device.identifier and Observation.device.identifier. */
export const DEVICE_ID_SYSTEM = 'urn:rpm-portal:device-id';
export const FHIR_VERSION = '4.0.1';
/** The R4 vital-signs profiles each kind conforms to. */
export const PROFILE_BP = 'http://hl7.org/fhir/StructureDefinition/bp';
export const PROFILE_HEART_RATE = 'http://hl7.org/fhir/StructureDefinition/heartrate';
const DATA_ABSENT = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';

export interface VitalRow {
  id: number;
  patient_id: number;
  created_at: Date;
  /** A blood-pressure reading (with its pulse, when measured) or a heart rate alone. */
  kind: 'blood_pressure' | 'heart_rate';
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  source: string;
}

export interface PatientRow {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  gender: 'male' | 'female' | 'other' | null;
}

/** The device columns a FHIR Device shows; `patient_id` only when the reader may see that patient. */
export type FhirDeviceRow = Pick<DeviceRow, 'id' | 'device_id' | 'model' | 'type' | 'patient_id'>;

const vitalSigns = [
  {
    coding: [
      {
        system: 'http://terminology.hl7.org/CodeSystem/observation-category',
        code: 'vital-signs',
        display: 'Vital Signs',
      },
    ],
  },
];

const quantity = (value: number, unit: string, code: string) => ({ value, unit, system: UCUM, code });

const heartRateCode = { coding: [{ system: LOINC, code: LOINC_HEART_RATE, display: 'Heart rate' }] };
const beatsPerMinute = (pulse: number) => quantity(pulse, 'beats/minute', '/min');

/**
 * A reading as an R4 vital-signs Observation of its kind: the blood-pressure panel (the heart
 * rate measured with it as a component), or a heart rate alone.
 */
export function presentObservation(v: VitalRow): Observation {
  const common = {
    resourceType: 'Observation' as const,
    id: String(v.id),
    status: 'final' as const,
    category: vitalSigns,
    subject: { reference: `Patient/${v.patient_id}` },
    effectiveDateTime: v.created_at.toISOString(),
    ...(v.source === MANUAL_SOURCE ? {} : { device: { identifier: { system: DEVICE_ID_SYSTEM, value: v.source } } }),
  };
  if (v.kind === 'heart_rate' || v.systolic === null || v.diastolic === null) {
    return {
      ...common,
      meta: { profile: [PROFILE_HEART_RATE] },
      code: heartRateCode,
      ...(v.pulse !== null
        ? { valueQuantity: beatsPerMinute(v.pulse) }
        : { dataAbsentReason: { coding: [{ system: DATA_ABSENT, code: 'unknown' }] } }),
    };
  }
  const component: ObservationComponent[] = [
    {
      code: { coding: [{ system: LOINC, code: LOINC_SYSTOLIC, display: 'Systolic blood pressure' }] },
      valueQuantity: quantity(v.systolic, 'mmHg', 'mm[Hg]'),
    },
    {
      code: { coding: [{ system: LOINC, code: LOINC_DIASTOLIC, display: 'Diastolic blood pressure' }] },
      valueQuantity: quantity(v.diastolic, 'mmHg', 'mm[Hg]'),
    },
  ];
  if (v.pulse !== null) component.push({ code: heartRateCode, valueQuantity: beatsPerMinute(v.pulse) });
  return {
    ...common,
    meta: { profile: [PROFILE_BP] },
    code: {
      coding: [{ system: LOINC, code: LOINC_BP_PANEL, display: 'Blood pressure panel with all children optional' }],
    },
    component,
  };
}

export function presentPatient(p: PatientRow): Patient {
  return {
    resourceType: 'Patient',
    id: String(p.id),
    name: [{ family: p.last_name, given: [p.first_name, ...(p.middle_name ? [p.middle_name] : [])] }],
    ...(p.gender ? { gender: p.gender } : {}),
    ...(p.date_of_birth ? { birthDate: p.date_of_birth } : {}),
  };
}

export function presentDevice(d: FhirDeviceRow): Device {
  return {
    resourceType: 'Device',
    id: String(d.id),
    identifier: [{ system: DEVICE_ID_SYSTEM, value: d.device_id }],
    ...(d.model ? { modelNumber: d.model } : {}),
    ...(d.type ? { type: { text: d.type } } : {}),
    ...(d.patient_id !== null ? { patient: { reference: `Patient/${d.patient_id}` } } : {}),
  };
}

export type IssueCode =
  | 'invalid'
  | 'required'
  | 'value'
  | 'security'
  | 'login'
  | 'not-found'
  | 'not-supported'
  | 'too-costly'
  | 'throttled'
  | 'exception'
  | 'informational'
  | 'duplicate'
  | 'conflict'
  | 'incomplete';

export function operationOutcome(
  severity: 'fatal' | 'error' | 'warning' | 'information',
  code: IssueCode,
  diagnostics: string,
  expression?: string,
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity, code, diagnostics, ...(expression ? { expression: [expression] } : {}) }],
  };
}

export function searchBundle(resources: (Observation | Device)[], links: { self: string; next?: string }): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    link: [{ relation: 'self', url: links.self }, ...(links.next ? [{ relation: 'next', url: links.next }] : [])],
    entry: resources.map((resource) => ({
      fullUrl: `${links.self.split('/fhir/R4/')[0]}/fhir/R4/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'match' as const },
    })),
  };
}

export function responseBundle(type: 'batch-response' | 'transaction-response', entries: BundleEntry[]): Bundle {
  return { resourceType: 'Bundle', type, entry: entries };
}

/** What this server does, for EHRs and integration engines that read it before calling. */
export function capabilityStatement(publicUrl: string, date: string): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date,
    publisher: 'RPM portal',
    kind: 'instance',
    implementation: { description: 'RPM portal FHIR R4 endpoint', url: `${publicUrl}/fhir/R4` },
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        security: {
          description:
            'A portal session cookie (staff, scoped to their organization) or Authorization: Bearer with the secret of a FHIR ingestion source (writes; reads when the source has a read key).',
        },
        resource: [
          { type: 'Patient', interaction: [{ code: 'read' }] },
          {
            type: 'Observation',
            interaction: [{ code: 'read' }, { code: 'create' }, { code: 'search-type' }],
            searchParam: [
              { name: 'patient', type: 'reference' },
              { name: 'date', type: 'date' },
              { name: '_count', type: 'number' },
            ],
          },
          {
            type: 'Device',
            interaction: [{ code: 'search-type' }],
            searchParam: [{ name: 'identifier', type: 'token' }],
          },
        ],
        interaction: [{ code: 'batch' }, { code: 'transaction' }],
      },
    ],
  };
}
