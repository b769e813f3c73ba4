import type {
  Bundle,
  BundleEntry,
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
/** The R4 base profile every vital-signs Observation conforms to; each specific profile constrains it. */
export const PROFILE_VITAL_SIGNS = `${PROFILE_BASE}/vitalsigns`;
/** The R4 vital-signs profiles each kind conforms to. */
export const PROFILE_BP = `${PROFILE_BASE}/bp`;
export const PROFILE_HEART_RATE = `${PROFILE_BASE}/heartrate`;
/** HL7 v2 table 0203's "medical record number": what kind of identifier a Patient's MRN is. */
const MRN_TYPE = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR', display: 'Medical record number' }],
};
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

/**
 * Every profile a kind's observations claim: the specific vital-signs profile and the base
 * vital-signs profile it derives from (a client that knows only the base one still finds it).
 * Glucose has no R4 vital-signs profile (it is a laboratory result): it claims none.
 */
export const profilesOf = (kind: MeasurementKind): string[] => {
  const specific = profileOf(kind);
  return specific !== undefined && kind.category === 'vital-signs' ? [specific, PROFILE_VITAL_SIGNS] : [];
};

/**
 * A resource's version as R4 `meta` carries it: the instant it last changed, and a version id
 * derived from that instant (the portal keeps no history, so the id only has to change when the
 * resource does). The same pair gives a read its ETag and Last-Modified.
 */
export function versionMeta(lastUpdated: Date, profile: string[] = []) {
  return {
    versionId: String(lastUpdated.getTime()),
    lastUpdated: lastUpdated.toISOString(),
    ...(profile.length > 0 ? { profile } : {}),
  };
}

/** A business identifier a sender gave an Observation (system absent when the sender gave none). */
export interface StoredIdentifier {
  system: string | null;
  value: string;
}

/** One stored observation of any kind: its values by component code, in the canonical units. */
export interface ObservationRow {
  id: number;
  patient_id: number;
  created_at: Date;
  kind: string;
  components: Readonly<Record<string, number>>;
  source: string;
  /** When the portal stored it: the Observation's meta.lastUpdated (a reading never changes after). */
  received_at: Date;
  /** The sender's identifiers of it, if any (FHIR-created observations). */
  identifiers?: readonly StoredIdentifier[];
}

export interface PatientRow {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  gender: 'male' | 'female' | 'other' | null;
  updated_at: Date;
  /** The patient's id in the organization's EHR, and the system its organization names for it. */
  mrn: string | null;
  identifier_system: string | null;
}

/** The device columns a FHIR Device shows; `patient_id` only when the reader may see that patient. */
export type FhirDeviceRow = Pick<DeviceRow, 'id' | 'device_id' | 'model' | 'type' | 'patient_id'> & {
  /** The last change the Device shows: its creation or its latest assignment or return. */
  updated_at: Date;
};

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
export const emittedCodes = (kind: MeasurementKind): readonly string[] =>
  kind.category === 'vital-signs' ? kindCodes(kind) : [kind.loinc];
const codeOf = (kind: MeasurementKind): CodeableConcept => ({ coding: emittedCodes(kind).map(loincCoding) });

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
    meta: versionMeta(row.received_at, profilesOf(kind)),
    ...(row.identifiers && row.identifiers.length > 0
      ? {
          identifier: row.identifiers.map((i) => ({
            ...(i.system !== null ? { system: i.system } : {}),
            value: i.value,
          })),
        }
      : {}),
    status: 'final',
    category: categoryOf(kind),
    subject: { reference: `Patient/${row.patient_id}` },
    effectiveDateTime: row.created_at.toISOString(),
    ...(row.source === MANUAL_SOURCE
      ? {}
      : { device: { identifier: { system: DEVICE_ID_SYSTEM, value: row.source } } }),
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
    meta: versionMeta(p.updated_at),
    ...(p.mrn !== null && p.identifier_system !== null
      ? { identifier: [{ use: 'usual' as const, type: MRN_TYPE, system: p.identifier_system, value: p.mrn }] }
      : {}),
    name: [{ family: p.last_name, given: [p.first_name, ...(p.middle_name ? [p.middle_name] : [])] }],
    ...(p.gender ? { gender: p.gender } : {}),
    ...(p.date_of_birth ? { birthDate: p.date_of_birth } : {}),
  };
}

export function presentDevice(d: FhirDeviceRow): Device {
  return {
    resourceType: 'Device',
    id: String(d.id),
    meta: versionMeta(d.updated_at),
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
  | 'incomplete'
  | 'multiple-matches';

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

/**
 * A search's page as an R4 searchset: the matches, then the resources `_include` brought
 * (search.mode `include`), the total when counted, and the page's links.
 */
export function searchBundle(
  resources: (Observation | Device | Patient)[],
  links: { self: string; first?: string; next?: string },
  extra: { total?: number; included?: Patient[] } = {},
): Bundle {
  const base = links.self.split('/fhir/R4/')[0];
  const entry = (resource: Observation | Device | Patient, mode: 'match' | 'include') => ({
    fullUrl: `${base}/fhir/R4/${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode },
  });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(extra.total !== undefined ? { total: extra.total } : {}),
    link: [
      { relation: 'self', url: links.self },
      ...(links.first ? [{ relation: 'first', url: links.first }] : []),
      ...(links.next ? [{ relation: 'next', url: links.next }] : []),
    ],
    entry: [...resources.map((r) => entry(r, 'match')), ...(extra.included ?? []).map((r) => entry(r, 'include'))],
  };
}

export function responseBundle(type: 'batch-response' | 'transaction-response', entries: BundleEntry[]): Bundle {
  return { resourceType: 'Bundle', type, entry: entries };
}
