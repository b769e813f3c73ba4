/**
 * The demo's programs and the readings of the devices they bring (scale, glucometer, pulse
 * oximeter), beside the cuff every demo patient has. Pure: values come from the patient's own
 * deterministic generator, in each kind's canonical unit, inside its plausible range and rounded to
 * its stored decimals; the seed stores them. Kinds, units, ranges, decimals and device types are
 * read from the measurement registry, never retyped here.
 */
import {
  checkComponents,
  componentOf,
  DEFAULT_THRESHOLDS,
  measurementKind,
  PROGRAMS,
  type DeviceType,
  type MeasurementKind,
} from '@rpm/contracts';

// The classifier's defaults (ADA level 2 and 1 hypoglycemia, the COPD oxygen floor): the demo's
// rare lows fall on the right side of them.
const GLUCOSE_LEVEL_2 = DEFAULT_THRESHOLDS.glucose_very_low;
const GLUCOSE_LEVEL_1 = DEFAULT_THRESHOLDS.glucose_low;
const SPO2_FLOOR_COPD = DEFAULT_THRESHOLDS.spo2_target_copd;

export type Rng = () => number;
export type ProgramId = (typeof PROGRAMS)[number]['id'];

/** One reading: whole days before today, minutes after that day's midnight, canonical values. */
export interface SeedReading {
  d: number;
  m: number;
  c: Record<string, number>;
}

/** A device the patient is given for a kind of their program, and its readings. */
export interface SeedDevice {
  type: DeviceType;
  label: string;
  model: string;
  kind: MeasurementKind;
  /** The UCUM unit of the kind's primary component (the observation's `unit`). */
  unit: string;
  readings: SeedReading[];
}

/**
 * The programs of the n-th demo patient (0-based): of every ten, three hypertension, two heart
 * failure, two diabetes, two COPD and one both heart failure and diabetes.
 */
export function programsFor(n: number): ProgramId[] {
  const slot = n % 10;
  if (slot < 3) return ['hypertension'];
  if (slot < 5) return ['heart_failure'];
  if (slot < 7) return ['diabetes'];
  if (slot < 9) return ['copd'];
  return ['heart_failure', 'diabetes'];
}

/**
 * A demo diagnosis (ICD-10-CM) per program, for the claim fields an auditor asks for: essential
 * hypertension, heart failure unspecified, type 2 diabetes without complications, COPD unspecified.
 */
const DEMO_DIAGNOSES: Record<ProgramId, string> = {
  hypertension: 'I10',
  heart_failure: 'I50.9',
  diabetes: 'E11.9',
  copd: 'J44.9',
};
export const diagnosesFor = (n: number): string[] => programsFor(n).map((p) => DEMO_DIAGNOSES[p]);

/**
 * About one patient in ten stopped measuring some days ago (no reading since), so the billing
 * worklist has patients at risk and outreach to show. 0 for the others.
 */
export const stoppedDaysAgo = (n: number): number => (n % 10 === 3 ? 6 + (n % 7) : 0);

/** The patient's place among the demo patients of a program (0-based), so shares are exact. */
function indexInProgram(n: number, program: ProgramId): number {
  let index = 0;
  for (let m = 0; m < n; m++) if (programsFor(m).includes(program)) index++;
  return index;
}

/** Roughly normal, mean 0 and standard deviation 1 (sum of three uniforms). */
const gauss = (r: Rng) => (r() + r() + r() - 1.5) * 2;
const between = (r: Rng, min: number, max: number) => min + r() * (max - min);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The kind's values kept inside its plausible ranges and rounded to its stored decimals. */
function canonical(kind: MeasurementKind, values: Record<string, number>): Record<string, number> {
  const bounded: Record<string, number> = {};
  for (const [code, value] of Object.entries(values)) {
    const { min, max } = componentOf(kind, code)!.range;
    bounded[code] = clamp(value, min, max);
  }
  const checked = checkComponents(kind, bounded);
  if (!checked.ok) throw new Error(`demo ${kind.kind} reading refused: ${checked.message}`);
  return checked.values;
}

/**
 * Days without readings: about one day in twelve missed, and for some patients a week away
 * (travel, a hospital stay) somewhere in the middle of the period.
 */
export function missedDays(r: Rng, days: number): Set<number> {
  const missed = new Set<number>();
  for (let d = 0; d < days; d++) if (r() < 0.08) missed.add(d);
  if (r() < 0.25) {
    const start = 20 + Math.floor(r() * (days - 35));
    for (let d = start; d < start + 7; d++) missed.add(d);
  }
  return missed;
}

/**
 * Daily morning weights around a personal baseline (60–120 kg) with ±0.3 kg day-to-day noise and a
 * slow drift. A gainer puts on 1.5–3 kg over 3–5 days ending in the last week and keeps it: the
 * fluid gain the HFSA/ACC/AHA guideline asks patients to report.
 */
function weights(r: Rng, kind: MeasurementKind, days: number, missed: Set<number>, gainer: boolean) {
  const base = between(r, 60, 120);
  const phase = r() * 2 * Math.PI;
  const gainDays = 3 + Math.floor(r() * 3);
  const gainEnd = 1 + Math.floor(r() * 5);
  const gain = gainer ? between(r, 1.5, 3) : 0;
  const readings: SeedReading[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const noise = between(r, -0.3, 0.3);
    const minute = 390 + Math.floor(r() * 90);
    if (missed.has(d)) continue;
    const share = clamp((gainEnd + gainDays - d) / gainDays, 0, 1);
    const kg = base + 0.4 * Math.sin(d / 9 + phase) + noise + gain * share;
    readings.push({ d, m: minute, c: canonical(kind, { [kind.primary]: kg }) });
  }
  return readings;
}

/**
 * One to three finger-sticks a day (the patient's habit, some days one more or one fewer): fasting
 * around a personal level of 90–160 mg/dL, after lunch and dinner higher. A patient prone to lows
 * has an occasional one below 70 mg/dL and, rarely, below 54; the others stay above 70.
 */
function glucoseReadings(r: Rng, kind: MeasurementKind, days: number, missed: Set<number>, lowProne: boolean) {
  const fasting = between(r, 90, 160);
  const rise = between(r, 30, 80);
  const habit = 1 + Math.floor(r() * 3);
  const readings: SeedReading[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const shift = r() < 0.3 ? (r() < 0.5 ? -1 : 1) : 0;
    const count = clamp(habit + shift, 1, 3);
    // Fasting first; two a day adds after dinner, three adds after lunch too.
    const slots: [number, number][] = [[390, 90]];
    if (count >= 2) slots.push([1170, 90]);
    if (count === 3) slots.push([780, 90]);
    for (const [from, spread] of slots) {
      const minute = from + Math.floor(r() * spread);
      const afterMeal = from !== 390;
      let mgdl = fasting + (afterMeal ? rise + gauss(r) * 20 : gauss(r) * 12);
      const low = r();
      if (lowProne && low < 0.04) {
        mgdl =
          low < 0.008
            ? between(r, GLUCOSE_LEVEL_2 - 12, GLUCOSE_LEVEL_2 - 1)
            : between(r, GLUCOSE_LEVEL_2, GLUCOSE_LEVEL_1 - 1);
      } else {
        mgdl = Math.max(GLUCOSE_LEVEL_1 + 2, mgdl);
      }
      if (missed.has(d)) continue;
      readings.push({ d, m: minute, c: canonical(kind, { [kind.primary]: mgdl }) });
    }
  }
  return readings;
}

/**
 * A morning reading every day and an evening one most days: saturation 88–97 % around a personal
 * level, pulse 60–105; now and then a dip below the COPD target (88 %) with a faster pulse.
 */
function oximetry(r: Rng, kind: MeasurementKind, days: number, missed: Set<number>) {
  const level = between(r, 91, 95);
  const rate = between(r, 68, 88);
  const readings: SeedReading[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const slots = r() < 0.6 ? [480, 1110] : [480];
    for (const from of slots) {
      const minute = from + Math.floor(r() * 90);
      const dip = r() < 0.03;
      const spo2 = dip
        ? between(r, SPO2_FLOOR_COPD - 5, SPO2_FLOOR_COPD - 0.5)
        : clamp(level + gauss(r) * 1.3, SPO2_FLOOR_COPD, 97);
      const pulse = clamp(rate + gauss(r) * 6 + (dip ? 12 : 0), 60, 105);
      if (missed.has(d)) continue;
      readings.push({ d, m: minute, c: canonical(kind, { [kind.primary]: spo2, pulse }) });
    }
  }
  return readings;
}

const DEVICE_LABELS: Partial<Record<DeviceType, { prefix: string; model: string }>> = {
  scale: { prefix: 'SCALE', model: 'WS-220' },
  glucometer: { prefix: 'GLUCO', model: 'GM-100' },
  pulse_oximeter: { prefix: 'OXI', model: 'PO-60' },
};

/**
 * The devices the n-th patient's programs bring besides the cuff (a scale for heart failure, a
 * glucometer for diabetes, a pulse oximeter for COPD: the device type of each program kind the
 * demo generates), with their readings over `days` days. `r` is the patient's own generator.
 */
export function programDevices(n: number, r: Rng, days: number): SeedDevice[] {
  const programs = programsFor(n);
  const missed = missedDays(r, days);
  const generated: Record<string, (kind: MeasurementKind) => SeedReading[]> = {
    weight: (kind) => weights(r, kind, days, missed, indexInProgram(n, 'heart_failure') % 3 === 0),
    glucose: (kind) => glucoseReadings(r, kind, days, missed, indexInProgram(n, 'diabetes') % 3 === 0),
    spo2: (kind) => oximetry(r, kind, days, missed),
  };
  const devices: SeedDevice[] = [];
  for (const program of PROGRAMS.filter((p) => programs.includes(p.id))) {
    for (const name of program.kinds) {
      const kind = measurementKind(name);
      const generate = generated[name];
      const label = kind && DEVICE_LABELS[kind.deviceType];
      if (!kind || !generate || !label || devices.some((device) => device.type === kind.deviceType)) continue;
      devices.push({
        type: kind.deviceType,
        label: `DEMO-${label.prefix}-${String(n + 1).padStart(4, '0')}`,
        model: label.model,
        kind,
        unit: componentOf(kind, kind.primary)!.ucum,
        readings: generate(kind),
      });
    }
  }
  return devices;
}
