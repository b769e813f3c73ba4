import { Type, type Static } from 'typebox';
import { MeasurementTexts } from '../texts/measurements.ts';
import { bloodPressure } from './blood-pressure.ts';
import { glucose } from './glucose.ts';
import { heartRate } from './heart-rate.ts';
import { oxygenSaturation } from './oxygen-saturation.ts';
import type { ComponentDefinition, DeviceType, MeasurementKind, UnitChoice, VendorMetric } from './types.ts';
import { temperature } from './temperature.ts';
import { weight } from './weight.ts';

export * from './blood-pressure.ts';
export * from './heart-rate.ts';
export * from './weight.ts';
export * from './glucose.ts';
export * from './oxygen-saturation.ts';
export * from './temperature.ts';

/**
 * Every measurement kind, in the patient page's panel order. A new kind is its own file plus one
 * entry here: the helpers below, and every layer, read the kinds from this list only.
 */
export const MEASUREMENT_KINDS = [
  bloodPressure,
  heartRate,
  weight,
  glucose,
  oxygenSaturation,
  temperature,
] as const satisfies readonly MeasurementKind[];

/** A stored kind's name (`MeasurementKind.kind`): lower-case letters, digits and underscores. */
/** A kind's name: lower-case letters, digits and underscores. */
export const KIND_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';
export const MeasurementKindName = Type.String({ pattern: KIND_NAME_PATTERN });
export type MeasurementKindName = Static<typeof MeasurementKindName>;

const kinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;

export function measurementKind(kind: string): MeasurementKind | undefined {
  return kinds.find((k) => k.kind === kind);
}

/** The kind an observation's LOINC code names: its own code, or one of its alternates. */
export function kindByLoinc(code: string): MeasurementKind | undefined {
  return kinds.find((k) => k.loinc === code || (k.alternateLoinc?.includes(code) ?? false));
}

/** The kind (and the metric's mapping) a vendor's metric fills, e.g. Tenovi 'weight'. */
export function kindByVendorMetric(
  vendor: string,
  metric: string,
): { kind: MeasurementKind; vendorMetric: VendorMetric } | undefined {
  for (const kind of kinds) {
    const vendorMetric = kind.vendorMetrics.find((m) => m.vendor === vendor && m.metric === metric);
    if (vendorMetric) return { kind, vendorMetric };
  }
  return undefined;
}

/** The device types that measure some kind, each once, in the kinds' order. */
export const DEVICE_TYPES: readonly DeviceType[] = [...new Set(kinds.map((k) => k.deviceType))];

/** The kinds a device type measures (a cuff: blood pressure and heart rate). */
export function kindsForDeviceType(type: string): readonly MeasurementKind[] {
  return kinds.filter((k) => k.deviceType === type);
}

export function componentOf(kind: MeasurementKind, code: string): ComponentDefinition | undefined {
  return kind.components.find((c) => c.code === code);
}

/**
 * The unit a component's value may be given or shown in. The kind's unit choices apply to the
 * components stored in the primary component's unit (a cuff's systolic and diastolic, not its
 * pulse); a component's own canonical unit is always accepted (as is, to its stored decimals when
 * it is not a choice). Undefined for an unknown component or a unit that is not one of these.
 */
export function unitChoiceFor(kind: MeasurementKind, component: string, ucum: string): UnitChoice | undefined {
  const definition = componentOf(kind, component);
  if (!definition) return undefined;
  const primaryUcum = componentOf(kind, kind.primary)?.ucum;
  const choice = definition.ucum === primaryUcum ? kind.unitChoices.find((u) => u.ucum === ucum) : undefined;
  if (choice) return choice;
  if (ucum !== definition.ucum) return undefined;
  return { ucum, label: ucum, decimals: definition.decimals, toCanonical: (v) => v, fromCanonical: (v) => v };
}

/** The unit shown for a component's canonical values (e.g. 'mmHg' for 'mm[Hg]'), as in messages. */
export function canonicalUnitLabel(kind: MeasurementKind, component: ComponentDefinition): string {
  return unitChoiceFor(kind, component.code, component.ucum)?.label ?? component.ucum;
}

/**
 * A value given in `ucum` (a sender's unit or the clinic's display unit), in the component's
 * canonical unit; not rounded. Returns undefined, never throws, for an unknown component or a
 * unit the kind does not accept: the caller refuses the reading (MeasurementTexts.unknownUnit).
 */
export function toCanonical(kind: MeasurementKind, component: string, value: number, ucum: string): number | undefined {
  return unitChoiceFor(kind, component, ucum)?.toCanonical(value);
}

/** A canonical value in `ucum`; not rounded. Undefined (never throws) as `toCanonical`. */
export function fromCanonical(
  kind: MeasurementKind,
  component: string,
  value: number,
  ucum: string,
): number | undefined {
  return unitChoiceFor(kind, component, ucum)?.fromCanonical(value);
}

/** Rounds half away from zero to `decimals` places, on the decimal digits (1.005 → 1.01). */
export function roundTo(value: number, decimals: number): number {
  const rounded = Math.sign(value) * Math.round(Number(`${Math.abs(value)}e${decimals}`));
  return Number(`${rounded}e-${decimals}`);
}

/**
 * A canonical value shown in `ucum`, to that unit's decimals (e.g. weight 81.65 kg in '[lb_av]' →
 * "180.0"); the number only, the unit's label is `unitChoiceFor(…).label`. Undefined as `toCanonical`.
 */
export function formatValue(
  kind: MeasurementKind,
  component: string,
  canonicalValue: number,
  ucum: string,
): string | undefined {
  const choice = unitChoiceFor(kind, component, ucum);
  if (!choice) return undefined;
  return roundTo(choice.fromCanonical(canonicalValue), choice.decimals).toFixed(choice.decimals);
}

export type ComponentCheck = { ok: true; values: Record<string, number> } | { ok: false; message: string };

/**
 * Checks a reading's values, given in the canonical units, before it is stored: no unknown
 * component, every required one present (an optional one may be missing or null), each a finite
 * number within its plausible range. The values that pass come back rounded to the decimals
 * stored; the first that fails comes back as a message naming it (MeasurementTexts).
 */
export function checkComponents(
  kind: MeasurementKind,
  values: Readonly<Record<string, number | null | undefined>>,
): ComponentCheck {
  const unknown = Object.keys(values).find((code) => !componentOf(kind, code));
  if (unknown !== undefined) return { ok: false, message: MeasurementTexts.unknownComponent(unknown, kind.label) };
  const checked: Record<string, number> = {};
  for (const component of kind.components) {
    const value = values[component.code];
    if (value === undefined || value === null) {
      if (component.optional) continue;
      return { ok: false, message: MeasurementTexts.missingComponent(component.label, kind.label.toLowerCase()) };
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return { ok: false, message: MeasurementTexts.notANumber(component.label) };
    }
    const { min, max } = component.range;
    if (value < min || value > max) {
      const unit = canonicalUnitLabel(kind, component);
      return {
        ok: false,
        message: MeasurementTexts.outsideRange(component.label, String(value), String(min), String(max), unit),
      };
    }
    checked[component.code] = roundTo(value, component.decimals);
  }
  return { ok: true, values: checked };
}
