import type { Observation, Quantity } from '@medplum/fhirtypes';
import { IngestionErrors } from '@rpm/contracts';
import {
  LOINC,
  LOINC_BP_PANEL,
  LOINC_DIASTOLIC,
  LOINC_HEART_RATE,
  LOINC_SYSTOLIC,
  UCUM,
} from '../../presenters/fhir.ts';
import type { IncomingPulse, IncomingReading } from '../ingestion/readings.repository.ts';
import { bloodPressure, measuredTime, pulseRate, ReadingRejected } from '../ingestion/reading-rules.ts';

export type ParsedObservation =
  | { kind: 'reading'; reading: IncomingReading; subjectPatientId: number | null }
  | { kind: 'pulse'; pulse: IncomingPulse; subjectPatientId: number | null };

type Codeable = { coding?: { system?: string; code?: string }[] } | undefined;
const hasLoinc = (c: Codeable, code: string) => (c?.coding ?? []).some((x) => x.system === LOINC && x.code === code);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value in the UCUM unit required: anything else would be a silent unit error in clinical data. */
function valueIn(q: Quantity | undefined, field: string, ucum: string, device: string | null): unknown {
  if (!q) throw new ReadingRejected(IngestionErrors.required(`${field}.valueQuantity`), device);
  if (q.code !== ucum || (q.system !== undefined && q.system !== UCUM)) {
    throw new ReadingRejected(`${field}.valueQuantity must be in UCUM ${ucum}`, device);
  }
  return q.value;
}

/** The portal device id named by the Observation: device.identifier.value, or the id of a Device reference. */
function deviceIdentifier(o: Observation, at: string): string {
  const d = o.device;
  const fromIdentifier = d?.identifier?.value;
  const fromReference =
    typeof d?.reference === 'string' ? /^(?:.*\/)?Device\/([^/]+)$/.exec(d.reference)?.[1] : undefined;
  const id = (fromIdentifier ?? fromReference ?? '').trim();
  if (!id) throw new ReadingRejected(IngestionErrors.required(`${at}device`));
  return id.slice(0, 100);
}

/**
 * Reads a vital-signs Observation: the blood-pressure panel (85354-9 with 8480-6 and 8462-4 in
 * mm[Hg], optionally 8867-4) or a heart rate (8867-4 in /min). `at` prefixes field names (a
 * Bundle entry's path) so that a refusal points at the field.
 */
export function parseObservation(resource: unknown, at = ''): ParsedObservation {
  if (!isObject(resource) || resource.resourceType !== 'Observation') {
    throw new ReadingRejected(`${at}resourceType must be Observation`);
  }
  const o = resource as unknown as Observation;
  if (!o.status) throw new ReadingRejected(IngestionErrors.required(`${at}status`));
  if (o.status === 'entered-in-error' || o.status === 'cancelled')
    throw new ReadingRejected(`${at}status must not be ${o.status}`);
  const device = deviceIdentifier(o, at);
  const measuredAt = measuredTime(o.effectiveDateTime, `${at}effectiveDateTime`, device);
  let subjectPatientId: number | null = null;
  if (o.subject !== undefined) {
    const m = /^(?:.*\/)?Patient\/(\d{1,9})$/.exec(o.subject.reference ?? '');
    if (!m) throw new ReadingRejected(`${at}subject.reference must be Patient/{id} of a portal patient`, device);
    subjectPatientId = Number(m[1]);
  }
  const components = Array.isArray(o.component) ? o.component : [];
  const componentValue = (code: string) => components.find((c) => hasLoinc(c.code, code));
  const heartRate = (field: string, q: Quantity | undefined) =>
    pulseRate(valueIn(q, field, '/min', device), `${field}.valueQuantity.value`, device);

  if (hasLoinc(o.code, LOINC_BP_PANEL)) {
    const s = componentValue(LOINC_SYSTOLIC);
    const d = componentValue(LOINC_DIASTOLIC);
    const sField = `${at}component[${LOINC_SYSTOLIC}]`;
    const dField = `${at}component[${LOINC_DIASTOLIC}]`;
    if (!s) throw new ReadingRejected(IngestionErrors.required(sField), device);
    if (!d) throw new ReadingRejected(IngestionErrors.required(dField), device);
    const pressure = bloodPressure(
      valueIn(s.valueQuantity, sField, 'mm[Hg]', device),
      valueIn(d.valueQuantity, dField, 'mm[Hg]', device),
      {
        systolic: `${sField}.valueQuantity.value`,
        diastolic: `${dField}.valueQuantity.value`,
      },
      device,
    );
    const hr = componentValue(LOINC_HEART_RATE);
    const pulse = hr ? heartRate(`${at}component[${LOINC_HEART_RATE}]`, hr.valueQuantity) : null;
    return {
      kind: 'reading',
      reading: { deviceIdentifier: device, measuredAt, index: 0, kind: 'blood_pressure', ...pressure, pulse, irregular: null },
      subjectPatientId,
    };
  }
  if (hasLoinc(o.code, LOINC_HEART_RATE)) {
    const pulse = heartRate(at ? at.replace(/\.$/, '') : 'Observation', o.valueQuantity);
    return {
      kind: 'pulse',
      pulse: { deviceIdentifier: device, measuredAt, index: 0, pulse, irregular: null },
      subjectPatientId,
    };
  }
  throw new ReadingRejected(
    `${at}code must be LOINC ${LOINC_BP_PANEL} (blood pressure panel) or ${LOINC_HEART_RATE} (heart rate)`,
    device,
  );
}
