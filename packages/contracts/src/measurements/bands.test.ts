import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COPD_PROGRAM,
  MEASUREMENT_KINDS,
  effectiveThresholds,
  roundTo,
  type ChartBand,
  type MeasurementKind,
  type ThresholdValues,
} from '../index.ts';

/*
 * The chart's bands and the table's marks come from the same thresholds; this checks, for every
 * kind in the registry, that they never disagree. One component is swept over its plausible range
 * while the others stay at a normal reading. A band's edge is where the comparison's direction
 * ("above" or "at or above") decides, which a band cannot say: on an edge the mark may be either
 * neighbouring band's; inside a band it must be that band's, level and words.
 */

/** A reading of each kind that no band contains (the other components' values during a sweep). */
const NORMAL_READING: Record<string, Record<string, number>> = {
  blood_pressure: { systolic: 115, diastolic: 70 },
  heart_rate: { pulse: 70 },
  glucose: { glucose: 110 },
  spo2: { spo2: 97 },
  temperature: { temperature: 36.8 },
};

/** Default, program and override sets (each ordered as the guidelines are, as a sane organization sets them). */
const THRESHOLD_SETS: [string, ThresholdValues][] = [
  ['defaults', effectiveThresholds(null, null)],
  ['COPD', effectiveThresholds(null, null, [COPD_PROGRAM])],
  ['COPD with own target', effectiveThresholds(null, { spo2_target: 90 }, [COPD_PROGRAM])],
  [
    'organization and patient overrides',
    effectiveThresholds(
      {
        stage2_systolic: 140,
        stage2_diastolic: 90,
        crisis_diastolic: 110,
        pulse_high: 130,
        glucose_high: 300,
        fever: 38.3,
      },
      {
        stage1_systolic: 125,
        low_systolic: 95,
        pulse_low: 40,
        glucose_low: 80,
        glucose_very_high: 350,
        spo2_critical: 88,
      },
    ),
  ],
];

const inside = (b: ChartBand, v: number) => (b.from === null || v > b.from) && (b.to === null || v < b.to);
const onEdge = (b: ChartBand, v: number) => b.from === v || b.to === v;

const banded = MEASUREMENT_KINDS.filter((k) => (k as MeasurementKind).bands !== undefined) as MeasurementKind[];

function check(kind: MeasurementKind, thresholds: ThresholdValues, component: string, value: number) {
  const bands = kind.bands!(thresholds).filter((b) => b.component === component);
  const got = kind.classify({ ...NORMAL_READING[kind.kind], [component]: value }, { thresholds });
  const containing = bands.filter((b) => inside(b, value));
  const edges = bands.filter((b) => onEdge(b, value));
  const where = `${kind.kind} ${component} ${value}`;
  // Bands of one component do not overlap.
  expect(containing.length, where).toBeLessThanOrEqual(1);
  if (edges.length > 0) {
    expect(['normal', ...edges.map((b) => b.level), ...containing.map((b) => b.level)], where).toContain(got.level);
    return;
  }
  if (containing.length === 0) {
    expect(got.level, where).toBe('normal');
    return;
  }
  expect({ level: got.level, label: got.label }, where).toEqual({
    level: containing[0]!.level,
    label: containing[0]!.label,
  });
}

describe('every kind: the chart bands agree with the marks', () => {
  it('has a normal reading for every kind with bands, which is normal', () => {
    for (const kind of banded) {
      const reading = NORMAL_READING[kind.kind];
      expect(reading, kind.kind).toBeDefined();
      for (const [, thresholds] of THRESHOLD_SETS) expect(kind.classify(reading!, { thresholds }).level).toBe('normal');
    }
  });

  const cases = banded.flatMap((kind) =>
    [...new Set(kind.bands!(THRESHOLD_SETS[0]![1]).map((b) => b.component))].flatMap((component) =>
      THRESHOLD_SETS.map(([name, thresholds]) => [kind.kind, component, name, kind, thresholds] as const),
    ),
  );

  it.each(cases)('%s %s, %s: at every stored value of the plausible range', (_, code, __, kind, thresholds) => {
    const component = kind.components.find((c) => c.code === code)!;
    expect(component, code).toBeDefined();
    const { min, max } = component.range;
    const steps = Math.round((max - min) * 10 ** component.decimals);
    for (let i = 0; i <= steps; i += 1)
      check(kind, thresholds, code, roundTo(min + i / 10 ** component.decimals, component.decimals));
  });

  it.each(cases)('%s %s, %s: at any value in between', (_, code, __, kind, thresholds) => {
    const { min, max } = kind.components.find((c) => c.code === code)!.range;
    fc.assert(
      fc.property(fc.double({ min, max, noNaN: true }), (value) => check(kind, thresholds, code, value)),
      { numRuns: 200 },
    );
  });

  it('draws every non-normal level a single component reaches', () => {
    // Each band a classifier can reach on one component has a band (blood pressure's severe low
    // needs the pulse too, so it has none: it is a one-reading rule, not a region of the chart).
    for (const kind of banded) {
      const thresholds = THRESHOLD_SETS[0]![1];
      const levels = new Set(kind.bands!(thresholds).map((b) => `${b.component}:${b.level}`));
      const drawn = kind.components.filter((c) => kind.bands!(thresholds).some((b) => b.component === c.code));
      for (const component of drawn) {
        const steps = Math.round((component.range.max - component.range.min) * 10 ** component.decimals);
        for (let i = 0; i <= steps; i += 1) {
          const value = roundTo(component.range.min + i / 10 ** component.decimals, component.decimals);
          const { level } = kind.classify({ ...NORMAL_READING[kind.kind], [component.code]: value }, { thresholds });
          if (level !== 'normal')
            expect(levels.has(`${component.code}:${level}`), `${kind.kind} ${component.code} ${value}`).toBe(true);
        }
      }
    }
  });
});
