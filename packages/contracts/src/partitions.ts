/**
 * Monthly partitions of observations and audit records (migration 1000, server module
 * `partitions`). The database functions hold the same numbers where they decide; a test keeps
 * them equal.
 */

/**
 * Audit records are never dropped before they are six years old: HIPAA asks that documentation
 * the Security Rule requires be retained six years from its creation (45 CFR 164.316(b)(2)(i)).
 */
export const AUDIT_MIN_RETENTION_YEARS = 6;

/** Month tables created ahead of the current month by each maintenance run. */
export const PARTITION_MONTHS_AHEAD = 3;

/** The daily maintenance run (UTC), on top of the run at start. */
export const PARTITION_MAINTENANCE_CRON = '41 2 * * *';

/** Raised by the drop functions for a month that must be kept (audit < 6 years, readings inside a retention). */
export const RETENTION_REFUSED_SQLSTATE = 'RPM02';

/**
 * An organization's observation retention, in months (null keeps readings). The readings are the
 * evidence of the device-supply codes (99454: 16 days of data in a 30-day period), so none may go
 * while a claim for them can still be filed or reopened without cause: Medicare takes a claim up
 * to 12 months after the date of service (42 CFR 424.44(a)(1)), and a contractor may reopen a
 * determination within one year of it for any reason (42 CFR 405.980(b)(1)). 24 months covers
 * both, and with them every billing period still open (a 30-day period spans at most two calendar
 * months). Reopening for good cause reaches back four years (405.980(b)(2)), and state law often
 * asks longer for medical records: an organization bound by those sets more. The database's CHECK holds the same bounds (migration 1020).
 */
export const OBSERVATION_RETENTION_MONTHS_MIN = 24;
export const OBSERVATION_RETENTION_MONTHS_MAX = 1200;
