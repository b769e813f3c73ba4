import { Type, type Static } from 'typebox';
import { PG_INTEGER_MAX } from './common.ts';
import { OBSERVATION_RETENTION_MONTHS_MAX, OBSERVATION_RETENTION_MONTHS_MIN } from './partitions.ts';

export const Provider = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Provider = Static<typeof Provider>;

/**
 * How the care timer on a patient's page starts for providers: when the record opens, or on a
 * click (organizations.timer_start). Others than providers always start it with a click.
 */
export const TIMER_STARTS = ['open', 'click'] as const;
export type TimerStart = (typeof TIMER_STARTS)[number];
export const TimerStartSchema = Type.Unsafe<TimerStart>({ type: 'string', enum: [...TIMER_STARTS] });

export const Organization = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /**
   * Read by the patient page of every user of the organization (the list is scoped). The server
   * always sends it; optional for clients and fixtures written before the setting.
   */
  timer_start: Type.Optional(TimerStartSchema),
});
export type Organization = Static<typeof Organization>;

/**
 * How long the organization keeps its readings (organizations.observation_retention_months, applied
 * by the daily partition maintenance): whole months, from OBSERVATION_RETENTION_MONTHS_MIN (why:
 * partitions.ts) to OBSERVATION_RETENTION_MONTHS_MAX, or null to keep every reading.
 */
// Bounded only by the column's type, so that a value out of the range above gets its own message
// from observationRetentionError rather than the schema's.
export const ObservationRetentionSchema = Type.Union([
  Type.Integer({ minimum: -PG_INTEGER_MAX, maximum: PG_INTEGER_MAX }),
  Type.Null(),
]);

export const ObservationRetentionTexts = {
  title: 'Reading retention',
  help:
    `Readings older than this many months are deleted by the daily maintenance; leave empty to keep every ` +
    `reading. At least ${OBSERVATION_RETENTION_MONTHS_MIN} months: readings are the ` +
    `evidence of claims, which Medicare takes up to 12 months after the service and may reopen within a year.`,
  label: (organization: string) => `Keep readings for (months): ${organization}`,
  save: 'Save',
  keepAll: 'Kept without limit',
} as const;

export const ObservationRetentionErrors = {
  notWhole: 'Retention must be a whole number of months',
  tooShort: `Retention must be at least ${OBSERVATION_RETENTION_MONTHS_MIN} months: readings are billing evidence`,
  tooLong: `Retention can be at most ${OBSERVATION_RETENTION_MONTHS_MAX} months`,
} as const;

/** Why a retention is refused (the server answers 400 with it, the form shows it), or null. */
export function observationRetentionError(months: number | null): string | null {
  if (months === null) return null;
  if (!Number.isInteger(months)) return ObservationRetentionErrors.notWhole;
  if (months < OBSERVATION_RETENTION_MONTHS_MIN) return ObservationRetentionErrors.tooShort;
  if (months > OBSERVATION_RETENTION_MONTHS_MAX) return ObservationRetentionErrors.tooLong;
  return null;
}
