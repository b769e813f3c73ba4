/**
 * Who the demo's patients are: names that agree with their gender, birth dates, enrollment
 * statuses, insurance and the blood pressure each one measures. Pure: every value comes from the
 * patient's own deterministic generator, so every run derives the same patients from the same
 * number; the seed stores them through the portal's services.
 */
import type { EnrollmentStatus, Gender, InsuranceInput } from '@rpm/contracts';
import type { Rng, SeedReading } from './seed-demo-kinds.ts';

/** First names with the gender the demo patient gets, so that name and gender agree. */
const FIRST: readonly (readonly [string, Gender])[] = [
  ['James', 'male'],
  ['Mary', 'female'],
  ['Robert', 'male'],
  ['Patricia', 'female'],
  ['John', 'male'],
  ['Jennifer', 'female'],
  ['Michael', 'male'],
  ['Linda', 'female'],
  ['David', 'male'],
  ['Elizabeth', 'female'],
  ['William', 'male'],
  ['Barbara', 'female'],
  ['Richard', 'male'],
  ['Susan', 'female'],
  ['Joseph', 'male'],
  ['Jessica', 'female'],
  ['Thomas', 'male'],
  ['Sarah', 'female'],
  ['Charles', 'male'],
  ['Karen', 'female'],
  ['Daniel', 'male'],
  ['Nancy', 'female'],
  ['Matthew', 'male'],
  ['Lisa', 'female'],
  ['Anthony', 'male'],
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
];
// Mostly active, as a running programme is; '' leaves the status empty.
const STATUSES: readonly (EnrollmentStatus | '')[] = [
  'Active',
  'Active',
  'Active',
  'Paused',
  'Discharged',
  'Declined',
  '',
];
const PRIVATE_PAYERS = ['Blue Cross', 'Aetna', 'UnitedHealthcare', 'Cigna', 'Humana'];
export const NOTES = [
  'Reviewed readings with the patient by phone; adherence to medication confirmed.',
  'Patient reports mild headaches in the morning. Advised to log readings before medication.',
  'Readings trending down since dose adjustment. Continue current plan.',
  'Cuff re-positioning explained; earlier high readings likely due to cuff placement.',
  'Discussed low-sodium diet and daily walks. Follow-up in two weeks.',
];

/** A small deterministic generator, so every run derives the same patients from the same seed. */
export function rng(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th demo patient (0-based) of organization `o` (0-based), before anything is stored. */
export interface DemoPatient {
  n: number;
  first: string;
  last: string;
  gender: Gender;
  dob: string;
  status: EnrollmentStatus | '';
  insurances: InsuranceInput[];
  /** About a third are hypertensive: their cuff readings run higher. */
  hypertensive: boolean;
  /** The generator of the rest of this patient's data (notes, minutes), after the above. */
  r: Rng;
}

export function demoPatient(n: number, o: number): DemoPatient {
  const r = rng(1000 + n);
  const [first, gender] = FIRST[(n * 7) % FIRST.length]!;
  const last = LAST[(n * 11 + o) % LAST.length]!;
  const year = 1940 + Math.floor(r() * 45);
  const dob = `${year}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
  const status = STATUSES[Math.floor(r() * STATUSES.length)]!;
  const insurances: InsuranceInput[] = [
    { type: 'Medicare', provider_name: 'CMS', policy_number: `1EG4-TE5-MK${String(n).padStart(2, '0')}` },
  ];
  if (r() < 0.5) {
    insurances.push({
      type: 'Private',
      provider_name: PRIVATE_PAYERS[n % PRIVATE_PAYERS.length]!,
      policy_number: `PV-${100000 + n * 37}`,
      policyholder: `${first} ${last}`,
      policyholder_birthdate: dob,
    });
  }
  return { n, first, last, gender, dob, status, insurances, hypertensive: r() < 0.35, r };
}

/** Roughly normal around 0 (three uniforms), as the readings' noise. */
const noise = (r: Rng) => r() + r() + r() - 1.5;
const clampRound = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));

/**
 * The cuff's readings over `days` days: mornings (around 7:00) and evenings (around 19:00), each
 * varying by time of day, week and noise around the patient's own level; pulse 62 to 87.
 */
export function cuffReadings(p: DemoPatient, r: Rng, days: number): SeedReading[] {
  const baseSys = p.hypertensive ? 142 + r() * 18 : 112 + r() * 16;
  const baseDia = p.hypertensive ? 88 + r() * 10 : 70 + r() * 10;
  const readings: SeedReading[] = [];
  for (let d = days - 1; d >= 0; d--) {
    for (const slot of [0, 1]) {
      const m = (slot === 0 ? 7 * 60 : 19 * 60) + Math.floor(r() * 50);
      const systolic = clampRound(baseSys + (slot === 0 ? 6 : -3) + 5 * Math.sin(d / 7) + noise(r) * 12, 80, 260);
      const diastolic = clampRound(baseDia + (slot === 0 ? 3 : -2) + 3 * Math.sin(d / 7) + noise(r) * 8, 45, 160);
      const pulse = Math.round(62 + r() * 25);
      // The pressure pair must stay a pair (systolic above diastolic), as every reading's must.
      readings.push({ d, m, c: { systolic, diastolic: Math.min(diastolic, systolic - 10), pulse } });
    }
  }
  return readings;
}
