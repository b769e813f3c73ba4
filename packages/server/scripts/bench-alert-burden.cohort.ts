// The alert-burden benchmark's labelled cohort: its patients, their true events and their 30 days of readings.
import { roundTo } from '@rpm/contracts';
export const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const DAYS = 30;

/** The clinical definition of stale data used for the drawer's true event (no reading for 3 days). */
const STALE_AFTER_DAYS = 3;

// --- the cohort ------------------------------------------------------------------------------

type Label =
  | 'controlled'
  | 'uncontrolled'
  | 'white_coat_noise'
  | 'crisis'
  | 'hf_decompensation'
  | 'hypoglycemia'
  | 'desaturation_copd'
  | 'desaturation_non_copd'
  | 'drawer';
type Kind = 'blood_pressure' | 'weight' | 'glucose' | 'spo2' | 'temperature';
export type Route = 'tenovi' | 'fhir';

interface TrueEvent {
  what: string;
  /** The first reading of the event (simulated time). */
  at: number;
  /** An alert first raised from here on answers the event (a rule may fire on the episode's start). */
  from: number;
  critical: boolean;
  /** Any severity answers it (stale data is informational by design). */
  anySeverity?: boolean;
  /** Set while sending: a critical alert existed when the request with this reading returned. */
  inTransaction?: boolean;
}

export interface Patient {
  label: Label;
  n: number;
  id: number;
  route: Route;
  devices: Partial<Record<Kind, string>>;
  events: TrueEvent[];
}

export interface Reading {
  patient: Patient;
  kind: Kind;
  at: number;
  /** Canonical units: mmHg (systolic, diastolic, pulse), kg, mg/dL, %, °C. */
  values: number[];
  /** Checked right after its request returns: the critical event it carries. */
  critical?: TrueEvent;
}

export const PROGRAM: Record<Label, string> = {
  controlled: 'hypertension',
  uncontrolled: 'hypertension',
  white_coat_noise: 'hypertension',
  crisis: 'hypertension',
  hf_decompensation: 'heart_failure',
  hypoglycemia: 'diabetes',
  desaturation_copd: 'copd',
  // An oximeter outside COPD: heart failure is where one is usually prescribed.
  desaturation_non_copd: 'heart_failure',
  drawer: 'hypertension',
};
export const DEVICE_TYPE: Record<Kind, string> = {
  blood_pressure: 'cuff',
  weight: 'scale',
  glucose: 'glucometer',
  spo2: 'pulse_oximeter',
  temperature: 'thermometer',
};
export const LABELS = Object.keys(PROGRAM) as Label[];

/** mulberry32: small, fast and the same on every machine, so the cohort is reproducible. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * next();
  const int = (lo: number, hi: number) => Math.floor(uniform(lo, hi + 1));
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, uniform, int, normal };
}

/**
 * A patient's 30 days of readings, by label, and the true events in them. Day 0 begins 30 days
 * before `now`; every reading falls before `now`.
 */
export function generate(p: Patient, rnd: ReturnType<typeof prng>, now: number): Reading[] {
  const out: Reading[] = [];
  const dayStart = (d: number) => now - (DAYS - d) * DAY;
  const at = (d: number, hour: number, jitterMinutes = 40) =>
    dayStart(d) + hour * HOUR + rnd.uniform(-1, 1) * jitterMinutes * 60_000;
  const add = (kind: Kind, t: number, values: number[], critical?: TrueEvent) =>
    out.push({ patient: p, kind, at: t, values, ...(critical ? { critical } : {}) });
  const event = (e: TrueEvent) => {
    p.events.push(e);
    return e;
  };
  // Home pressures: a patient's own mean near the group's, readings around it; systolic and
  // diastolic move together in part.
  const pressure = (meanS: number, meanD: number) => {
    const shared = rnd.normal();
    const s = meanS + 10 * (0.6 * shared + 0.8 * rnd.normal());
    const d = meanD + 7 * (0.6 * shared + 0.8 * rnd.normal());
    return [Math.round(s), Math.round(Math.min(d, s - 20)), Math.round(70 + 6 * rnd.normal())];
  };
  const bpDays = (from: number, to: number, meanS: number, meanD: number, noisy = false) => {
    for (let d = from; d < to; d++) {
      const times = rnd.next() < 0.5 ? [7.5] : [7.5, 20];
      for (const h of times) {
        const v = pressure(meanS, meanD);
        // After coffee or rushing in: 20–30 mmHg higher.
        if (noisy && rnd.next() < 0.15) {
          v[0]! += rnd.int(20, 30);
          v[1]! += rnd.int(8, 15);
        }
        add('blood_pressure', at(d, h), v);
      }
    }
  };
  const own = (mean: number, spread: number) => mean + rnd.uniform(-spread, spread);
  const controlled = () => [own(122, 4), own(76, 3)] as const;

  switch (p.label) {
    case 'controlled':
      bpDays(0, DAYS, ...controlled());
      break;
    case 'uncontrolled': {
      const [s, d] = [own(148, 4), own(92, 3)];
      bpDays(0, DAYS, s, d);
      const first = Math.min(...out.map((r) => r.at));
      event({ what: 'sustained stage 2', at: first, from: first, critical: false });
      break;
    }
    case 'white_coat_noise':
      bpDays(0, DAYS, ...controlled(), true);
      break;
    case 'crisis': {
      const x = rnd.int(12, 26);
      const [s, d] = controlled();
      bpDays(0, x, s, d);
      const t = at(x, 7.5);
      const e = event({ what: 'crisis', at: t, from: t, critical: true });
      add('blood_pressure', t, [rnd.int(188, 200), rnd.int(123, 128), rnd.int(85, 100)], e);
      add('blood_pressure', t + 15 * 60_000, [rnd.int(186, 198), rnd.int(123, 127), rnd.int(85, 100)]);
      bpDays(x + 1, DAYS, s, d);
      break;
    }
    case 'hf_decompensation': {
      const base = rnd.uniform(65, 95);
      const gainFrom = rnd.int(16, 22);
      const series: { t: number; kg: number }[] = [];
      for (let d = 0; d < DAYS; d++) {
        const gained = 0.5 * Math.max(0, Math.min(6, d - gainFrom + 1));
        const kg = roundTo(base + gained + rnd.uniform(-0.3, 0.3), 1);
        series.push({ t: at(d, 7, 20), kg });
        add('weight', series[d]!.t, [kg]);
      }
      // The true event: the first weighing more than 2.3 kg above any of the week before, or 0.9 kg above the day before.
      const hit = series.findIndex(
        (w, i) =>
          i > 0 &&
          (w.kg - series[i - 1]!.kg > 0.9 || series.slice(Math.max(0, i - 7), i).some((o) => w.kg - o.kg > 2.3)),
      );
      if (hit >= 0) event({ what: 'weight gain', at: series[hit]!.t, from: series[gainFrom]!.t, critical: false });
      break;
    }
    case 'hypoglycemia': {
      const low = rnd.int(14, 27);
      for (let d = 0; d < DAYS; d++) {
        const times = [7, 12.5, 18, 22].slice(0, rnd.int(2, 4));
        for (const h of times) {
          const t = at(d, h, 30);
          if (d === low && h === 12.5) {
            const first = event({ what: 'glucose below 70', at: t, from: t, critical: false });
            add('glucose', t, [60]);
            const e = event({ what: 'glucose below 54', at: t + 40 * 60_000, from: first.from, critical: true });
            add('glucose', e.at, [50], e);
          } else add('glucose', t, [rnd.int(100, 170)]);
        }
      }
      break;
    }
    case 'desaturation_copd':
    case 'desaturation_non_copd': {
      const dip = rnd.int(12, 22);
      const severe = dip + rnd.int(2, 5);
      for (let d = 0; d < DAYS; d++) {
        for (const h of [8, 19]) {
          const t = at(d, h, 30);
          if (d === dip && h === 8) {
            add('spo2', t, [89]);
            add('spo2', t + 45 * 60_000, [87]);
            // 89 and 87 are within the target of a COPD patient at risk of hypercapnia (88–92 %), near enough.
            if (p.label === 'desaturation_non_copd') event({ what: 'SpO2 below 90', at: t, from: t, critical: false });
          } else if (d === severe && h === 19) {
            const e = event({ what: 'SpO2 83', at: t, from: t, critical: true });
            add('spo2', t, [83], e);
          } else add('spo2', t, [rnd.int(94, 97)]);
        }
      }
      break;
    }
    case 'drawer': {
      const stop = 10;
      bpDays(0, stop, ...controlled());
      const last = Math.max(...out.map((r) => r.at));
      // An alert on the last reading itself is not about the silence after it.
      event({
        what: 'stale data',
        at: last + STALE_AFTER_DAYS * DAY,
        from: last + 60_000,
        critical: false,
        anySeverity: true,
      });
      break;
    }
  }
  // Temperature now and then, for a quarter of the patients (none for the drawer: nothing is measured there).
  if (p.n % 4 === 0 && p.label !== 'drawer') {
    for (let d = rnd.int(0, 6); d < DAYS; d += rnd.int(4, 8))
      add('temperature', at(d, 9), [roundTo(rnd.uniform(36.3, 37.2), 1)]);
  }
  return out;
}
