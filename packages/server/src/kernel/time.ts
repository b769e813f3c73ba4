/** A timestamp as the API writes it (contracts' Timestamp), null kept. */
export function isoTime(value: Date): string;
export function isoTime(value: Date | null): string | null;
export function isoTime(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

/** The calendar month of `now` in a time zone, 'YYYY-MM'. */
export function monthIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(now);
}
