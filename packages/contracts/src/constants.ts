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
