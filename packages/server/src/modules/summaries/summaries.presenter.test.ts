import { bloodPressure, effectiveThresholds, weight } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { summarizeAlerts, summarizeReadings } from './summaries.presenter.ts';

const context = { programs: [], thresholds: effectiveThresholds(null, null, []) };
const bp = (day: string, systolic: number, diastolic: number, pulse?: number) => ({
  id: 1,
  kind: bloodPressure.kind,
  day,
  components: { systolic, diastolic, ...(pulse === undefined ? {} : { pulse }) },
});

describe('summarizeReadings', () => {
  it('gives each component its own count: a cuff may send no pulse', () => {
    const [kind] = summarizeReadings([bp('2026-03-01', 120, 80, 70), bp('2026-03-02', 124, 78)], context);
    expect(kind!.components.map((c) => [c.code, c.count, c.mean])).toEqual([
      ['systolic', 2, 122],
      ['diastolic', 2, 79],
      ['pulse', 1, 70],
    ]);
  });

  it("rounds to the unit's display decimals, half away from zero", () => {
    const w = (value: number) => ({ id: 2, kind: weight.kind, day: '2026-03-01', components: { [weight.primary]: value } });
    const [kind] = summarizeReadings([w(80.04), w(80.11)], context);
    // Mean 80.075 kg shown to one decimal.
    expect(kind!.components[0]).toMatchObject({ mean: 80.1, min: 80, max: 80.1, decimals: 1, unit: 'kg' });
    expect(kind!.days_measured).toBe(1);
  });

  it("counts in target as the kind's classifier calling a reading normal, with the patient's thresholds", () => {
    const readings = [bp('2026-03-01', 128, 78), bp('2026-03-01', 133, 78)];
    expect(summarizeReadings(readings, context)[0]).toMatchObject({ in_target: 1, in_target_share: 0.5 });
    // The patient's own stage-1 systolic of 135: both are now below it.
    const own = { programs: [], thresholds: effectiveThresholds(null, { stage1_systolic: 135 }, []) };
    expect(summarizeReadings(readings, own)[0]).toMatchObject({ in_target: 2, in_target_share: 1 });
  });

  it('leaves out kinds without readings and kinds the registry does not know', () => {
    expect(summarizeReadings([{ id: 3, kind: 'unknown_kind', day: '2026-03-01', components: { x: 1 } }], context)).toEqual([]);
  });
});

describe('summarizeAlerts', () => {
  it('counts the resolved per reason, most first, and the ones still open or acknowledged', () => {
    expect(
      summarizeAlerts([
        { status: 'resolved', resolution_reason: 'referred' },
        { status: 'resolved', resolution_reason: 'reached_patient' },
        { status: 'resolved', resolution_reason: 'reached_patient' },
        { status: 'acknowledged', resolution_reason: null },
        { status: 'open', resolution_reason: null },
      ]),
    ).toEqual({
      raised: 5,
      open: 2,
      resolved: [
        { reason: 'reached_patient', count: 2 },
        { reason: 'referred', count: 1 },
      ],
    });
  });
});
