import {
  checkComponents,
  FHIR_STORED_STATUSES,
  FhirErrors,
  FhirObservationInput,
  IngestionErrors,
  MEASUREMENT_KINDS,
  parseFhirDateTime,
  ReadingLimits,
  toCanonical,
  type ComponentDefinition,
  type FhirObservationInput as CheckedObservation,
  type MeasurementKind,
} from '@rpm/contracts';
import { Compile } from 'typebox/compile';
import {
  isOwnValue,
  kindCodes,
  LOINC,
  LOINC_BP_PANEL,
  LOINC_DIASTOLIC,
  LOINC_HEART_RATE,
  LOINC_SYSTOLIC,
  UCUM,
} from './fhir.presenter.ts';
import type { IncomingReading } from '../ingestion/index.ts';
import { bloodPressure, pulseRate, ReadingRejected } from '../ingestion/index.ts';

/** A checked Observation: the reading it carries and the patient its `subject` names, if any. */
export interface ParsedObservation {
  reading: IncomingReading;
  subjectPatientId: number | null;
  /** The sender's identifiers of the Observation (those with a value), kept with the stored reading. */
  identifiers: { system: string | null; value: string }[];
}

/** The longest identifier system and value kept (the store's limit; real ones are far shorter). */
const IDENTIFIER_MAX = 255;

/** The sender's identifiers: each needs a value; system and value within the store's bounds. */
function identifiersOf(o: CheckedObservation, at: string): ParsedObservation['identifiers'] {
  const seen = new Set<string>();
  return (o.identifier ?? []).flatMap((i, n) => {
    const field = `${at}identifier[${n}]`;
    const value = i.value?.trim();
    if (!value) throw new ReadingRejected(FhirErrors.identifierValue(field));
    if (value.length > IDENTIFIER_MAX || (i.system?.length ?? 0) > IDENTIFIER_MAX)
      throw new ReadingRejected(
        FhirErrors.invalid(field, `system and value must be at most ${IDENTIFIER_MAX} characters`),
      );
    const system = i.system?.trim() || null;
    const key = `${system ?? ''}|${value}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ system, value }];
  });
}

/** What the checks need besides the body: where "local" is, and how old a reading may be. */
export interface ObservationRules {
  publicUrl: string;
  maxAgeDays: number;
  now?: number;
}

const checkObservation = Compile(FhirObservationInput);

/** Longest element name echoed back: an unknown key is the sender's text, and may be a megabyte of it. */
const NAME_ECHO_MAX = 64;

/** A validator's path (`/component/0/code`) as a FHIR expression (`component[0].code`). */
export function fhirPath(at: string, instancePath: string): string {
  const parts = instancePath.split('/').slice(1);
  let out = at.replace(/\.$/, '');
  for (const p of parts) {
    const name = p.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(p)
      ? `[${p}]`
      : `${out ? '.' : ''}${name.length > NAME_ECHO_MAX ? `${name.slice(0, NAME_ECHO_MAX)}…` : name}`;
  }
  return out || 'Observation';
}

interface SchemaProblem {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * The first problem of a value against a schema, as one sentence naming the field: a missing
 * element, an unknown one, a value outside its value set, or a wrong type.
 */
export function schemaProblem(problems: Iterable<SchemaProblem>, at: string): string | null {
  const all = [...problems];
  const first = all[0];
  if (!first) return null;
  const field = fhirPath(at, first.instancePath);
  if (first.keyword === 'required') {
    const missing = (first.params.requiredProperties as string[] | undefined)?.[0] ?? '';
    return IngestionErrors.required(fhirPath(at, `${first.instancePath}/${missing}`));
  }
  if (first.keyword === 'boolean' || first.keyword === 'additionalProperties') {
    const extra = all.find((p) => p.keyword === 'boolean');
    return FhirErrors.unknownElement(extra ? fhirPath(at, extra.instancePath) : field);
  }
  if (first.keyword === 'const') {
    // A value set (a union of constants): name every allowed code.
    const allowed = all
      .filter((p) => p.keyword === 'const' && p.instancePath === first.instancePath)
      .map((p) => String(p.params.allowedValue));
    return FhirErrors.invalid(field, `must be one of ${allowed.join(', ')}`);
  }
  return FhirErrors.invalid(field, first.message);
}

/** Checks `value` against a compiled schema; refuses naming the field. */
export function checked<T>(
  validator: { Check(v: unknown): boolean; Errors(v: unknown): Iterable<SchemaProblem> },
  value: unknown,
  at: string,
): T {
  if (validator.Check(value)) return value as T;
  throw new ReadingRejected(
    schemaProblem(validator.Errors(value), at) ?? FhirErrors.invalid(fhirPath(at, ''), 'invalid'),
  );
}

type Coded = { coding?: { system?: string; code?: string }[] } | undefined;
const hasLoinc = (c: Coded, code: string) => (c?.coding ?? []).some((x) => x.system === LOINC && x.code === code);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A value in one of the UCUM units accepted (the first is the canonical one): anything else
 * would be a silent unit error in clinical data. Returns the value and the unit it came in.
 */
function valueIn(
  q: CheckedObservation['valueQuantity'],
  field: string,
  units: readonly string[],
  device: string,
): { value: number; ucum: string } {
  if (!q) throw new ReadingRejected(IngestionErrors.required(`${field}.valueQuantity`), device);
  const ucum = units.find((u) => u === q.code);
  if (ucum === undefined || (q.system !== undefined && q.system !== UCUM)) {
    throw new ReadingRejected(FhirErrors.unit(`${field}.valueQuantity`, units), device);
  }
  if (q.value === undefined)
    throw new ReadingRejected(IngestionErrors.required(`${field}.valueQuantity.value`), device);
  return { value: q.value, ucum };
}

/**
 * A reference to a resource of this server: `{type}/{id}` or this server's own absolute URL of
 * it. Another server's resource with the same id is another resource, never ours.
 */
function localId(reference: string, type: 'Patient' | 'Device', publicUrl: string, idPattern: string): string | null {
  const m = new RegExp(`^(?:${escapeRegExp(publicUrl)}/fhir/R4/)?${type}/(${idPattern})$`).exec(reference);
  return m?.[1] ?? null;
}

/** The portal device id the Observation names: device.identifier.value, or the id of a local Device reference. */
function deviceIdentifier(o: CheckedObservation, at: string, publicUrl: string): string {
  const d = o.device;
  let id = d?.identifier?.value;
  if (id === undefined && d?.reference !== undefined) {
    id = localId(d.reference, 'Device', publicUrl, '[^/]+') ?? undefined;
    if (id === undefined)
      throw new ReadingRejected(FhirErrors.invalid(`${at}device.reference`, 'must be Device/{id} of this server'));
  }
  const trimmed = (id ?? '').trim();
  if (!trimmed) throw new ReadingRejected(IngestionErrors.required(`${at}device`));
  if (trimmed.length > 100)
    throw new ReadingRejected(FhirErrors.invalid(`${at}device`, 'must be at most 100 characters'));
  return trimmed;
}

/** The measurement time: a real calendar date-time with a zone, neither ancient nor stale nor ahead. */
function effectiveTime(value: string, field: string, device: string, rules: ObservationRules): Date {
  const range = parseFhirDateTime(value, true);
  if (!range) throw new ReadingRejected(FhirErrors.dateTime(field), device);
  const t = range.start;
  const now = rules.now ?? Date.now();
  if (t.getTime() > now + ReadingLimits.futureToleranceMinutes * 60_000)
    throw new ReadingRejected(IngestionErrors.future(field), device);
  if (t.getTime() < Date.UTC(ReadingLimits.earliestYear, 0, 1) || t.getTime() < now - rules.maxAgeDays * 86_400_000)
    throw new ReadingRejected(FhirErrors.tooOld(field, rules.maxAgeDays, ReadingLimits.earliestYear), device);
  return t;
}

const registryKinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;

/** The UCUM units a component may be sent in: its canonical one, then the kind's choices that apply to it. */
function unitsOf(kind: MeasurementKind, component: ComponentDefinition): string[] {
  const choices = kind.unitChoices
    .map((u) => u.ucum)
    .filter((u) => toCanonical(kind, component.code, 1, u) !== undefined);
  return [...new Set([component.ucum, ...choices])];
}

/**
 * Checks the ingestion rules already define for a component, by its LOINC code: a pulse is a
 * whole number of beats per minute wherever it is measured (alone, with a cuff or an oximeter),
 * with the webhooks' message.
 */
const COMPONENT_RULES: Readonly<Record<string, (value: number, field: string, device: string) => number>> = {
  [LOINC_HEART_RATE]: pulseRate,
};

/**
 * A reading of any kind but the blood-pressure panel, from the registry: the component the
 * kind's own code measures from `valueQuantity`, the others from `component[]` by their LOINC
 * code; each in its canonical unit or one of the kind's unit choices (converted), then checked
 * against the plausible ranges. A refusal names the field.
 */
function readComponents(
  kind: MeasurementKind,
  o: CheckedObservation,
  at: string,
  device: string,
): Record<string, number> {
  const values: Record<string, number> = {};
  const fields: Record<string, string> = {};
  for (const definition of kind.components) {
    const own = isOwnValue(kind, definition);
    const field = own ? at.replace(/\.$/, '') || 'Observation' : `${at}component[${definition.loinc}]`;
    const quantity = own
      ? o.valueQuantity
      : (o.component ?? []).find((c) => hasLoinc(c.code, definition.loinc))?.valueQuantity;
    const present = own ? quantity !== undefined : (o.component ?? []).some((c) => hasLoinc(c.code, definition.loinc));
    if (!present && definition.optional) continue;
    if (!own && !present) throw new ReadingRejected(IngestionErrors.required(field), device);
    const sent = valueIn(quantity, field, unitsOf(kind, definition), device);
    const value = toCanonical(kind, definition.code, sent.value, sent.ucum) ?? sent.value;
    const rule = COMPONENT_RULES[definition.loinc];
    values[definition.code] = rule ? rule(value, `${field}.valueQuantity.value`, device) : value;
    fields[definition.code] = `${field}.valueQuantity.value`;
  }
  const check = checkComponents(kind, values);
  if (check.ok) return check.values;
  // The first component the check refuses, in the registry's order as the check goes.
  const refused = kind.components.find((c) => {
    const v = values[c.code];
    return v !== undefined && (v < c.range.min || v > c.range.max);
  });
  const field = refused ? fields[refused.code] : at.replace(/\.$/, '') || 'Observation';
  throw new ReadingRejected(FhirErrors.invalid(field ?? 'Observation', check.message), device);
}

/** The primary component's canonical unit: the unit a stored reading names. */
const unitOf = (kind: MeasurementKind) => kind.components.find((c) => c.code === kind.primary)?.ucum ?? '';

/**
 * Reads an Observation of any kind the registry knows, by its LOINC code (the first kind in the
 * registry's order that any coding names): the blood-pressure panel (85354-9 with 8480-6 and
 * 8462-4 in mm[Hg], optionally 8867-4), whose pair has rules of its own, or any other kind from
 * its registry entry (heart rate 8867-4, weight, glucose, oxygen saturation with an optional
 * pulse, ...). The whole body is checked against the input schema first, so the logic below
 * reads only typed values. `at` prefixes field names (a Bundle entry's path) so that a refusal
 * points at the field.
 */
export function parseObservation(resource: unknown, at: string, rules: ObservationRules): ParsedObservation {
  const o = checked<CheckedObservation>(checkObservation, resource, at);
  if (!FHIR_STORED_STATUSES.includes(o.status))
    throw new ReadingRejected(FhirErrors.statusNotStored(`${at}status`, o.status));
  const device = deviceIdentifier(o, at, rules.publicUrl);
  const measuredAt = effectiveTime(o.effectiveDateTime, `${at}effectiveDateTime`, device, rules);
  const identifiers = identifiersOf(o, at);
  let subjectPatientId: number | null = null;
  if (o.subject !== undefined) {
    const field = `${at}subject`;
    const id =
      o.subject.reference !== undefined && (o.subject.type === undefined || o.subject.type === 'Patient')
        ? localId(o.subject.reference, 'Patient', rules.publicUrl, '[1-9]\\d{0,8}')
        : null;
    if (id === null) throw new ReadingRejected(FhirErrors.subjectNotLocal(`${field}.reference`), device);
    subjectPatientId = Number(id);
  }
  const components = o.component ?? [];
  const component = (code: string) => components.find((c) => hasLoinc(c.code, code));
  const reading = { deviceIdentifier: device, measuredAt, index: 0, irregular: null };
  const kind = registryKinds.find((k) => kindCodes(k).some((code) => hasLoinc(o.code, code)));
  if (!kind) {
    throw new ReadingRejected(
      FhirErrors.unknownCode(
        `${at}code`,
        registryKinds.map((k) => `${k.loinc} (${k.label.toLowerCase()})`),
      ),
      device,
    );
  }

  if (kind.loinc === LOINC_BP_PANEL) {
    // The panel's pair is checked together (systolic above diastolic), as the webhooks check it.
    const s = component(LOINC_SYSTOLIC);
    const d = component(LOINC_DIASTOLIC);
    const sField = `${at}component[${LOINC_SYSTOLIC}]`;
    const dField = `${at}component[${LOINC_DIASTOLIC}]`;
    if (!s) throw new ReadingRejected(IngestionErrors.required(sField), device);
    if (!d) throw new ReadingRejected(IngestionErrors.required(dField), device);
    const mmHg = ['mm[Hg]'];
    const pressure = bloodPressure(
      valueIn(s.valueQuantity, sField, mmHg, device).value,
      valueIn(d.valueQuantity, dField, mmHg, device).value,
      { systolic: `${sField}.valueQuantity.value`, diastolic: `${dField}.valueQuantity.value` },
      device,
    );
    const hr = component(LOINC_HEART_RATE);
    const hrField = `${at}component[${LOINC_HEART_RATE}]`;
    const pulse = hr
      ? pulseRate(valueIn(hr.valueQuantity, hrField, ['/min'], device).value, `${hrField}.valueQuantity.value`, device)
      : null;
    return {
      reading: {
        ...reading,
        kind: kind.kind,
        components: pulse === null ? pressure : { ...pressure, pulse },
        unit: unitOf(kind),
      },
      subjectPatientId,
      identifiers,
    };
  }
  return {
    reading: { ...reading, kind: kind.kind, components: readComponents(kind, o, at, device), unit: unitOf(kind) },
    subjectPatientId,
    identifiers,
  };
}
