import { Labels } from '@rpm/contracts';

/** Enrollment status, or the spec's 'N/A' when there is none. */
export function statusText(status: string | null | undefined): string {
  return status && status.trim() ? status : Labels.notAvailable;
}

export function fullName(p: { first_name: string; middle_name?: string | null; last_name: string }): string {
  return [p.first_name, p.middle_name, p.last_name].filter((s) => s && s.trim()).join(' ');
}

/** Whole years from a date of birth (YYYY-MM-DD) to `today` (YYYY-MM-DD); null without a birth date. */
export function ageOn(dateOfBirth: string | null, today: string): number | null {
  if (!dateOfBirth) return null;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const age = ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
  return age >= 0 ? age : null;
}
