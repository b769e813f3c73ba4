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
