/** A timestamp as the API writes it (contracts' Timestamp), null kept. */
export function isoTime(value: Date): string;
export function isoTime(value: Date | null): string | null;
export function isoTime(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}
