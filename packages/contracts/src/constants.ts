/** Business constants of spec section 9, defined once for server, web and tests. */

export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
/** Server-side absolute session lifetime (DESIGN.md section 3). */
export const SESSION_ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** A session's last activity is written at most this often; the idle check is exact to it. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;
/** Live portal sessions per user; opening one more ends the oldest. */
export const MAX_SESSIONS_PER_USER = 10;
/** Failed token exchanges allowed per address and minute before 429. */
export const TOKEN_EXCHANGE_FAILURES_PER_MINUTE = 20;
export const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'click', 'scroll', 'touchstart'] as const;

export const FORGOT_PASSWORD_LOCKOUT_MS = 5_000;

export const REGISTRATION_ATTEMPTS = 2;
export const REGISTRATION_RETRY_DELAY_MS = 500;

export const PASSWORD_MIN_LENGTH = 8;
export const MFA_CODE_LENGTH = 6;

export const VITALS_PAGE_SIZE = 10;
export const VITALS_PAGE_SIZE_OPTIONS = [10, 20] as const;
export const NOTES_PAGE_SIZE = 10;
export const NOTES_PAGE_SIZE_OPTIONS = [10, 20] as const;
/** The tracking table opens on 10 rows. */
export const TRACKING_PAGE_SIZE = 10;

export const AUDIT_PAGE_SIZE = 10;
export const AUDIT_PAGE_SIZE_OPTIONS = [10, 50, 100] as const;

export const TRACKING_MINUTES_DEFAULT = 0;

export const SIDEBAR_COLLAPSED_WIDTH = 64;
export const SIDEBAR_EXPANDED_WIDTH = 220;
export const PRIMARY_COLOR = '#236fd6';

/** Header that every state-changing API call must carry (CSRF defence, spec's "auth header flag"). */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'XMLHttpRequest';
export const SESSION_COOKIE = 'rpm_session';

/** Client state keys. */
export const TIMEZONE_STORAGE_KEY = 'rpm.timezone';
export const SESSION_EXPIRED_FLAG_KEY = 'rpm.sessionExpired';
export const SESSION_BROADCAST_CHANNEL = 'rpm-session';

/** Largest page the list endpoints will serve. */
export const MAX_PAGE_LIMIT = 100;
export const DB_SAMPLE_MAX_ROWS = 50;

/**
 * Throttling of the built-in user pool's sign-in, reset-code and TOTP-code checks. There is no
 * lock-out: after `freeFailures` failures an account (or an address) must wait before its next
 * attempt, `baseDelayMs` doubled for each further failure, up to a cap. The account cap is short,
 * so that someone guessing another person's password delays that person by a minute at most; the
 * address cap is long, so that one address cannot keep guessing. Passwords, reset codes and TOTP
 * codes count separately (guessing reset codes never blocks an MFA sign-in). Failures older than
 * `failureWindowSeconds` are forgotten, and a success clears the account's counter.
 */
export const AUTH_THROTTLE = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  accountMaxDelayMs: 60_000,
  addressMaxDelayMs: 15 * 60_000,
  failureWindowSeconds: 24 * 3600,
  /** Wrong reset codes per account in 24 hours, whatever the number of codes requested. */
  resetCodeGuessesPerDay: 20,
  /** Wrong guesses of one reset code before it is void (a new code must be requested). */
  resetCodeGuessesPerCode: 5,
} as const;

/** Undelivered pool messages (outbox, when no SMTP is configured) are deleted after this. */
export const OUTBOX_RETENTION_DAYS = 7;

/**
 * Scrapes of /metrics per minute and address. Prometheus scrapes every 15 to 60 s, a few
 * replicas at most; the ceiling leaves them room and stops anyone guessing the token at speed.
 */
export const METRICS_RATE_LIMIT_PER_MINUTE = 30;
