import type {
  Bundle,
  BundleEntry,
  CapabilityStatement,
  CodeableConcept,
  Device,
  Observation,
  ObservationComponent,
  OperationOutcome,
  Patient,
  Quantity,
} from '@medplum/fhirtypes';
import {
  canonicalUnitLabel,
  MANUAL_SOURCE,
  measurementKind,
  type ComponentDefinition,
  type MeasurementKind,
} from '@rpm/contracts';
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
export const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
const PROFILE_BASE = 'http://hl7.org/fhir/StructureDefinition';
/** The R4 vital-signs profiles each kind conforms to. */
export const PROFILE_BP = `${PROFILE_BASE}/bp`;
export const PROFILE_HEART_RATE = `${PROFILE_BASE}/heartrate`;
const DATA_ABSENT = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';

/**
 * The R4 vital-signs profile of each observation code (FHIR R4 §8.1 "Vital Signs", its table of
 * profiles and LOINC codes): FHIR's vocabulary, not the portal's kinds. A kind conforms to the
 * profile of its own code or of one of its alternates; a kind with none (glucose) claims none.
 */
const VITAL_SIGNS_PROFILES: Readonly<Record<string, string>> = {
  [LOINC_BP_PANEL]: PROFILE_BP,
  [LOINC_HEART_RATE]: PROFILE_HEART_RATE,
  '29463-7': `${PROFILE_BASE}/bodyweight`,
  '2708-6': `${PROFILE_BASE}/oxygensat`,
  '59408-5': `${PROFILE_BASE}/oxygensat`,
  '8310-5': `${PROFILE_BASE}/bodytemp`,
  '9279-1': `${PROFILE_BASE}/resprate`,
  '8302-2': `${PROFILE_BASE}/bodyheight`,
  '39156-5': `${PROFILE_BASE}/bmi`,
};

/** LOINC display names of the codes the portal emits (a code missing here is sent without one). */
const LOINC_DISPLAY: Readonly<Record<string, string>> = {
  [LOINC_BP_PANEL]: 'Blood pressure panel with all children optional',
  [LOINC_SYSTOLIC]: 'Systolic blood pressure',
  [LOINC_DIASTOLIC]: 'Diastolic blood pressure',
  [LOINC_HEART_RATE]: 'Heart rate',
  '29463-7': 'Body weight',
  '59408-5': 'Oxygen saturation in Arterial blood by Pulse oximetry',
  '2708-6': 'Oxygen saturation in Arterial blood',
  '2339-0': 'Glucose [Mass/volume] in Blood',
  '41653-7': 'Glucose [Mass/volume] in Capillary blood by Glucometer',
  '8310-5': 'Body temperature',
};

/** How the vital-signs profile's examples show a UCUM unit where it differs from the portal's label. */
const UNIT_DISPLAY: Readonly<Record<string, string>> = { '/min': 'beats/minute' };

const CATEGORY_DISPLAY: Readonly<Record<MeasurementKind['category'], string>> = {
  'vital-signs': 'Vital Signs',
  laboratory: 'Laboratory',
};

/** Every code that names a kind's observation: its own LOINC, then its alternates. */
export const kindCodes = (kind: MeasurementKind): readonly string[] => [kind.loinc, ...(kind.alternateLoinc ?? [])];

/**
 * True when a component is the observation's own value (`valueQuantity`): its code is one of the
 * kind's (heart rate, weight, glucose, SpO2). The others are `component[]` (a panel's systolic
 * and diastolic, an oximeter's pulse).
 */
export const isOwnValue = (kind: MeasurementKind, component: ComponentDefinition): boolean =>
  kindCodes(kind).includes(component.loinc);

/** The vital-signs profile a kind's observations conform to, if any. */
export const profileOf = (kind: MeasurementKind): string | undefined =>
  kindCodes(kind)
    .map((code) => VITAL_SIGNS_PROFILES[code])
    .find((p) => p !== undefined);

/** One stored observation of any kind: its values by component code, in the canonical units. */
export interface ObservationRow {
  id: number;
  patient_id: number;
  created_at: Date;
  kind: string;
  components: Readonly<Record<string, number>>;
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

const loincCoding = (code: string) => {
  const display = LOINC_DISPLAY[code];
  return { system: LOINC, code, ...(display !== undefined ? { display } : {}) };
};

const categoryOf = (kind: MeasurementKind) => [
  { coding: [{ system: CATEGORY_SYSTEM, code: kind.category, display: CATEGORY_DISPLAY[kind.category] }] },
];

/**
 * The observation's code: the kind's LOINC, and for a vital sign its alternates too (the
 * oxygen-saturation profile wants 2708-6 beside 59408-5). A laboratory kind's alternates name
 * other methods (glucose by glucometer) the reading need not have used: left out.
 */
const codeOf = (kind: MeasurementKind): CodeableConcept => ({
  coding: (kind.category === 'vital-signs' ? kindCodes(kind) : [kind.loinc]).map(loincCoding),
});

function quantityOf(kind: MeasurementKind, component: ComponentDefinition, value: number): Quantity {
  const unit = UNIT_DISPLAY[component.ucum] ?? canonicalUnitLabel(kind, component);
  return { value, unit, system: UCUM, code: component.ucum };
}

/**
 * A reading as an R4 Observation of its kind, from the registry: the category, code and profile
 * of the kind; the value in `valueQuantity` (canonical UCUM) when the kind's own code measures it,
 * every other component (the blood-pressure panel's, an oximeter's pulse) in `component[]`.
 * Undefined for a kind the registry does not know.
 */
export function presentObservation(row: ObservationRow): Observation | undefined {
  const kind = measurementKind(row.kind);
  if (!kind) return undefined;
  const profile = profileOf(kind);
  const own = kind.components.find((c) => isOwnValue(kind, c));
  const ownValue = own ? row.components[own.code] : undefined;
  const component: ObservationComponent[] = kind.components.flatMap((c) => {
    const value = row.components[c.code];
    if (c === own || value === undefined) return [];
    return [{ code: { coding: [loincCoding(c.loinc)] }, valueQuantity: quantityOf(kind, c, value) }];
  });
  return {
    resourceType: 'Observation',
    id: String(row.id),
    status: 'final',
    category: categoryOf(kind),
    subject: { reference: `Patient/${row.patient_id}` },
    effectiveDateTime: row.created_at.toISOString(),
    ...(row.source === MANUAL_SOURCE
      ? {}
      : { device: { identifier: { system: DEVICE_ID_SYSTEM, value: row.source } } }),
    ...(profile !== undefined ? { meta: { profile: [profile] } } : {}),
    code: codeOf(kind),
    ...(own && ownValue !== undefined ? { valueQuantity: quantityOf(kind, own, ownValue) } : {}),
    ...(own && ownValue === undefined
      ? { dataAbsentReason: { coding: [{ system: DATA_ABSENT, code: 'unknown' }] } }
      : {}),
    ...(component.length > 0 ? { component } : {}),
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
              { name: 'code', type: 'token', documentation: 'LOINC code of the observation (system|code or code)' },
              { name: 'category', type: 'token', documentation: 'vital-signs or laboratory' },
              { name: '_count', type: 'number' },
            ],
          },
          {
            type: 'DiagnosticReport',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              { name: 'patient', type: 'reference' },
              { name: 'date', type: 'date', documentation: 'The month of the monthly summary, e.g. 2026-03' },
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
