import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/** The one way the portal writes a moment: ISO-like, to the minute, in the chosen time zone. */
export const TIMESTAMP_FORMAT = 'yyyy-MM-dd HH:mm';

/**
 * A server timestamp (UTC, ISO 8601) as `YYYY-MM-DD HH:mm` in `timeZone` (the one chosen in the
 * top bar); '' for none, and the text itself when it is not a timestamp. Every page uses this.
 */
export function formatTimestamp(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  return format(new TZDate(ms, timeZone), TIMESTAMP_FORMAT);
}
