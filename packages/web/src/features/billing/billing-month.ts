import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month (YYYY-MM) it is now in `zone`. */
export const currentMonth = (zone: string): string => format(new TZDate(Date.now(), zone), 'yyyy-MM');

/**
 * Whether `month` is over: in UTC, where the server judges a close, and in the user's zone, so
 * that nobody is offered a close of a month that is still running where they are.
 */
export const monthHasEnded = (month: string, zone: string): boolean =>
  month < currentMonth('UTC') && month < currentMonth(zone);
