import { MFA_CODE_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';

/** Client and server share these checks so both say the same thing about the same input. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value.trim());
}

export function meetsPasswordPolicy(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN_LENGTH &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /\d/.test(value) &&
    /[^A-Za-z0-9]/.test(value)
  );
}

/** Spaces are removed first, as the spec says, then exactly six digits. */
export function normalizeMfaCode(value: string): string | null {
  const code = value.replace(/\s+/g, '');
  return new RegExp(`^\\d{${MFA_CODE_LENGTH}}$`).test(code) ? code : null;
}

/** The earliest date of birth (and policyholder birthdate) the portal accepts. */
export const EARLIEST_DATE = '1900-01-01';
/** The most hours any time zone is ahead of UTC (UTC+14, Line Islands). */
const MAX_UTC_OFFSET_MS = 14 * 60 * 60 * 1000;

/**
 * Today's date where it is latest on Earth, YYYY-MM-DD: no user, whatever their time zone, has a
 * "today" after it, so "not in the future" never refuses someone's real today.
 */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + MAX_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** A YYYY-MM-DD date from 1900-01-01 to today (strings of this form compare as dates). */
export function isDateFrom1900ToToday(value: string, now: Date = new Date()): boolean {
  return value >= EARLIEST_DATE && value <= latestToday(now);
}
