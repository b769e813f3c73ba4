import { Type, type Static } from 'typebox';

/** A care program's id: lower-case letters, digits and underscores (as a measurement kind's name). */
export const ProgramName = Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' });
export type ProgramName = Static<typeof ProgramName>;

export interface Program {
  id: string;
  /** Shown to people, e.g. 'Heart failure'. */
  label: string;
  /** The measurement kinds (by name, see `MEASUREMENT_KINDS`) shown first on the patient page, in order. */
  kinds: readonly string[];
}

/** The patient with chronic obstructive pulmonary disease: the oxygen target is lower (BTS 2017). */
export const COPD_PROGRAM = 'copd';

export const PROGRAMS = [
  { id: 'hypertension', label: 'Hypertension', kinds: ['blood_pressure', 'heart_rate'] },
  { id: 'heart_failure', label: 'Heart failure', kinds: ['weight', 'blood_pressure', 'heart_rate'] },
  { id: 'diabetes', label: 'Diabetes', kinds: ['glucose', 'blood_pressure'] },
  { id: COPD_PROGRAM, label: 'COPD', kinds: ['spo2', 'heart_rate'] },
] as const satisfies readonly Program[];

export function program(id: string): Program | undefined {
  return PROGRAMS.find((p) => p.id === id);
}
