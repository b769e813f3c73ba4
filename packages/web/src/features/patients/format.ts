import { TZDate } from '@date-fns/tz';
import { Labels } from '@rpm/contracts';
import { format } from 'date-fns';

/** A server timestamp (UTC) shown in the zone chosen in the top bar. */
export function formatInZone(iso: string, timezone: string): string {
  return format(new TZDate(new Date(iso).getTime(), timezone), 'yyyy-MM-dd HH:mm');
}

/** Enrollment status, or the spec's 'N/A' when there is none. */
export function statusText(status: string | null | undefined): string {
  return status && status.trim() ? status : Labels.notAvailable;
}

export function fullName(p: { first_name: string; middle_name?: string | null; last_name: string }): string {
  return [p.first_name, p.middle_name, p.last_name].filter((s) => s && s.trim()).join(' ');
}
