import {
  MEASUREMENT_KINDS,
  PROGRAMS,
  componentOf,
  formatValue,
  measurementKind,
  unitChoiceFor,
  type DisplayUnits,
  type MeasurementKind,
  type UnitChoice,
} from '@rpm/contracts';

/** The unit a kind is shown and typed in: the organization's choice, else the kind's first. */
export function displayUnitOf(kind: MeasurementKind, units: DisplayUnits | undefined): UnitChoice {
  const chosen = units?.[kind.kind];
  return kind.unitChoices.find((u) => u.ucum === chosen) ?? kind.unitChoices[0]!;
}

/**
 * The unit a component is shown in: the display unit for the components stored in the primary
 * component's unit, the component's own canonical unit for the others (a cuff's pulse).
 */
export function componentUnit(kind: MeasurementKind, code: string, units: DisplayUnits | undefined): UnitChoice | undefined {
  const display = displayUnitOf(kind, units);
  const component = componentOf(kind, code);
  if (!component) return undefined;
  return unitChoiceFor(kind, code, display.ucum) ?? unitChoiceFor(kind, code, component.ucum);
}

/** A canonical value in the component's display unit, e.g. "180.0 lb"; null when there is none. */
export function showValue(
  kind: MeasurementKind,
  code: string,
  canonical: number | undefined,
  units: DisplayUnits | undefined,
): string | null {
  if (canonical === undefined) return null;
  const unit = componentUnit(kind, code, units);
  if (!unit) return null;
  const text = formatValue(kind, code, canonical, unit.ucum);
  return text === undefined ? null : `${text} ${unit.label}`;
}

/** A canonical value as a number in the component's display unit, rounded to its decimals (charts). */
export function displayNumber(
  kind: MeasurementKind,
  code: string,
  canonical: number | undefined,
  units: DisplayUnits | undefined,
): number | null {
  if (canonical === undefined) return null;
  const unit = componentUnit(kind, code, units);
  if (!unit) return null;
  const text = formatValue(kind, code, canonical, unit.ucum);
  return text === undefined ? null : Number(text);
}

/**
 * The kinds of the panels, in order: the kinds of the patient's programs first (program by
 * program, each program's kinds in its order), then the registry's order. Kinds this build does
 * not know are left out; `programKinds` maps a program id to its kinds (the API's list, or the
 * built-in programs while it loads).
 */
export function panelKinds(
  has: readonly string[],
  patientPrograms: readonly string[],
  programKinds: (id: string) => readonly string[] | undefined = (id) => PROGRAMS.find((p) => p.id === id)?.kinds,
): MeasurementKind[] {
  const wanted = new Set(has);
  const ordered: string[] = [];
  for (const id of patientPrograms) {
    for (const k of programKinds(id) ?? []) if (wanted.has(k) && !ordered.includes(k)) ordered.push(k);
  }
  for (const k of MEASUREMENT_KINDS) if (wanted.has(k.kind) && !ordered.includes(k.kind)) ordered.push(k.kind);
  return ordered.map((k) => measurementKind(k)).filter((k): k is MeasurementKind => k !== undefined);
}
