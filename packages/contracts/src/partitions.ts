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

/** An organization's observation retention, in months (null keeps readings). */
export const OBSERVATION_RETENTION_MONTHS_MIN = 1;
export const OBSERVATION_RETENTION_MONTHS_MAX = 1200;
