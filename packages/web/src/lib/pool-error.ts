/**
 * Amplify's own stand-ins for "the user pool sent no message": showing them would hide the spec's
 * text (e.g. "Login failed") behind a meaningless one.
 */
const PLACEHOLDER_MESSAGES = new Set(['Unknown error', 'An unknown error occurred.']);

/** The user pool's own message when it sent one, else the given fallback. */
export function poolMessage(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message && !PLACEHOLDER_MESSAGES.has(err.message)) return err.message;
  return fallback;
}

/** The error's name (Amplify names pool errors after the pool's exception, e.g. CodeMismatchException). */
export function poolErrorName(err: unknown): string {
  return err instanceof Error ? err.name : '';
}
