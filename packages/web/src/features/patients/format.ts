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

const timestampFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A server timestamp as `YYYY-MM-DD HH:mm` in `timeZone`, as lib/format-timestamp writes it, with
 * the browser's own Intl: the patient list's first load then carries no date library.
 */
export function listTimestamp(iso: string, timeZone: string): string {
  let f = timestampFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timestampFormats.set(timeZone, f);
  }
  const part = Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}
