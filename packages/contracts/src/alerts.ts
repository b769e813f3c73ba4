import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

/** The rules a reading (or the lack of one) is checked against. */
export const ALERT_RULES = [
  'bp_crisis',
  'bp_high',
  'bp_low',
  'pulse_low',
  'pulse_high',
  'irregular_heartbeat',
  'stale_data',
] as const;
export const AlertRule = Type.Union([
  Type.Literal('bp_crisis'),
  Type.Literal('bp_high'),
  Type.Literal('bp_low'),
  Type.Literal('pulse_low'),
  Type.Literal('pulse_high'),
  Type.Literal('irregular_heartbeat'),
  Type.Literal('stale_data'),
]);
export type AlertRule = (typeof ALERT_RULES)[number];

export const ALERT_SEVERITIES = ['critical', 'high', 'info'] as const;
export const AlertSeverity = Type.Union([Type.Literal('critical'), Type.Literal('high'), Type.Literal('info')]);
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export const AlertStatus = Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Literal('resolved')]);
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Each rule's severity (ACC/AHA blood-pressure categories applied to home readings). */
export const ALERT_RULE_SEVERITY: Record<AlertRule, AlertSeverity> = {
  bp_crisis: 'critical',
  bp_high: 'high',
  bp_low: 'high',
  pulse_low: 'high',
  pulse_high: 'high',
  irregular_heartbeat: 'info',
  stale_data: 'info',
};

/** Sort order of the worklist: critical first. */
export const ALERT_SEVERITY_RANK: Record<AlertSeverity, number> = { critical: 0, high: 1, info: 2 };

/**
 * The thresholds a reading is checked against. Crisis: systolic > crisis_systolic or diastolic >
 * crisis_diastolic. Stage 2: systolic ≥ high_systolic or diastolic ≥ high_diastolic. Low: systolic
 * < low_systolic or diastolic < low_diastolic. Pulse: < pulse_low or > pulse_high. The target is
 * what the patient is treated towards (drawn on the vitals Figure), not an alert.
 */
export const ALERT_THRESHOLD_KEYS = [
  'crisis_systolic',
  'crisis_diastolic',
  'high_systolic',
  'high_diastolic',
  'low_systolic',
  'low_diastolic',
  'pulse_low',
  'pulse_high',
  'target_systolic',
  'target_diastolic',
] as const;
export type AlertThresholdKey = (typeof ALERT_THRESHOLD_KEYS)[number];
export type AlertThresholdValues = Record<AlertThresholdKey, number>;

export const DEFAULT_ALERT_THRESHOLDS: AlertThresholdValues = {
  crisis_systolic: 180,
  crisis_diastolic: 120,
  high_systolic: 140,
  high_diastolic: 90,
  low_systolic: 90,
  low_diastolic: 60,
  pulse_low: 50,
  pulse_high: 120,
  target_systolic: 130,
  target_diastolic: 80,
};

/** Days without a reading after which an RPM patient gets a stale-data alert, unless the organization says otherwise. */
export const DEFAULT_STALE_DAYS = 3;
export const STALE_DAYS_MAX = 90;
/** When the stale-data check runs (cron, UTC): every hour at minute 7. */
export const STALE_CHECK_CRON = '7 * * * *';
export const ALERT_PAGE_MAX = 100;
/** Minutes a resolution may record (one tracking entry, as the tracking form allows). */
export const ALERT_RESOLVE_MAX_MINUTES = 1440;

const systolic = Type.Integer({ minimum: 40, maximum: 300 });
const diastolic = Type.Integer({ minimum: 20, maximum: 200 });
const pulse = Type.Integer({ minimum: 20, maximum: 300 });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Values that may be left to the default (null). */
const thresholdFields = {
  crisis_systolic: nullable(systolic),
  crisis_diastolic: nullable(diastolic),
  high_systolic: nullable(systolic),
  high_diastolic: nullable(diastolic),
  low_systolic: nullable(systolic),
  low_diastolic: nullable(diastolic),
  pulse_low: nullable(pulse),
  pulse_high: nullable(pulse),
  target_systolic: nullable(systolic),
  target_diastolic: nullable(diastolic),
};
export const AlertThresholdOverrides = Type.Object(thresholdFields, { additionalProperties: false });
export type AlertThresholdOverrides = Static<typeof AlertThresholdOverrides>;

export const AlertThresholdSet = Type.Object({
  crisis_systolic: systolic,
  crisis_diastolic: diastolic,
  high_systolic: systolic,
  high_diastolic: diastolic,
  low_systolic: systolic,
  low_diastolic: diastolic,
  pulse_low: pulse,
  pulse_high: pulse,
  target_systolic: systolic,
  target_diastolic: diastolic,
});

/** GET/PUT /api/patients/{id}/thresholds: what is set for the patient, and what applies. */
export const PatientThresholdsBody = AlertThresholdOverrides;
export type PatientThresholdsBody = Static<typeof PatientThresholdsBody>;
export const PatientThresholds = Type.Object({
  patient_id: Type.Integer(),
  overrides: AlertThresholdOverrides,
  effective: AlertThresholdSet,
});
export type PatientThresholds = Static<typeof PatientThresholds>;

/** GET/PUT /api/organizations/{id}/alert-settings */
export const AlertSettingsBody = Type.Object(
  { ...thresholdFields, stale_days: nullable(Type.Integer({ minimum: 1, maximum: STALE_DAYS_MAX })) },
  { additionalProperties: false },
);
export type AlertSettingsBody = Static<typeof AlertSettingsBody>;
export const AlertSettings = Type.Object({
  organization_id: Type.Integer(),
  overrides: AlertSettingsBody,
  effective: Type.Intersect([AlertThresholdSet, Type.Object({ stale_days: Type.Integer() })]),
});
export type AlertSettings = Static<typeof AlertSettings>;

/** What the alert last saw: a reading's values, or for stale data the days without one. */
export const AlertValues = Type.Object({
  systolic: Type.Optional(Type.Integer()),
  diastolic: Type.Optional(Type.Integer()),
  pulse: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  irregular_heartbeat: Type.Optional(Type.Boolean()),
  measured_at: Type.Optional(Timestamp),
  days_without_reading: Type.Optional(Type.Integer()),
});
export type AlertValues = Static<typeof AlertValues>;

export const Alert = Type.Object({
  id: Type.Integer(),
  patient_id: Type.Integer(),
  patient_name: Type.String(),
  rule: AlertRule,
  severity: AlertSeverity,
  status: AlertStatus,
  count: Type.Integer(),
  first_at: Timestamp,
  last_at: Timestamp,
  last_values: AlertValues,
  primary_provider_id: Type.Union([Type.Integer(), Type.Null()]),
});
export type Alert = Static<typeof Alert>;

/** GET /api/alerts */
export const AlertListQuery = Type.Object(
  {
    status: Type.Optional(AlertStatus),
    severity: Type.Optional(AlertSeverity),
    provider_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    patient_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_PAGE_MAX, default: 25 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type AlertListQuery = Static<typeof AlertListQuery>;
export const AlertPage = Type.Object({ items: Type.Array(Alert), total: Type.Integer() });
export type AlertPage = Static<typeof AlertPage>;

/** GET /api/alerts/summary: the badge and the dashboard. */
export const AlertSummary = Type.Object({
  open: Type.Integer(),
  by_severity: Type.Object({ critical: Type.Integer(), high: Type.Integer(), info: Type.Integer() }),
  stale_patients: Type.Integer(),
});
export type AlertSummary = Static<typeof AlertSummary>;

/** POST /api/alerts/{id}/resolve */
export const ResolveAlertBody = Type.Object(
  {
    note: Type.String({ minLength: 1, maxLength: 10000, pattern: '\\S' }),
    minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_RESOLVE_MAX_MINUTES })),
  },
  { additionalProperties: false },
);
export type ResolveAlertBody = Static<typeof ResolveAlertBody>;

/** One Server-Sent `alert` event: which alert changed, never patient details. */
export const AlertEvent = Type.Object({
  id: Type.Integer(),
  patient_id: Type.Integer(),
  severity: AlertSeverity,
  status: AlertStatus,
});
export type AlertEvent = Static<typeof AlertEvent>;
export const ALERT_STREAM_EVENT = 'alert';
/** Comment lines on an idle stream, so proxies and browsers keep it open. */
export const ALERT_STREAM_HEARTBEAT_MS = 20_000;
/** How long one stream lasts unless asked otherwise; the browser then reconnects. */
export const ALERT_STREAM_DEFAULT_SECONDS = 300;
/** The longest a client may ask for (`max_seconds`); the session's idle deadline ends it sooner. */
export const ALERT_STREAM_MAX_SECONDS = 3600;
/**
 * Open streams per session (per instance): a few tabs of one browser share a session. Opening
 * one more ends the oldest, with an `end` event whose reason is `superseded`.
 */
export const MAX_ALERT_STREAMS_PER_SESSION = 4;
/**
 * How often an open stream reads its session row again. Ending a session notifies every instance
 * at once and each event is checked before it is written; this backstop bounds how long a stream
 * stays open when a notification is lost (the listening connection was down).
 */
export const ALERT_STREAM_SESSION_CHECK_MS = 10_000;
/**
 * The server's last event on a stream it ends for a reason the browser should not simply retry:
 * `session` (the session ended, or reached its idle deadline: sign-in is needed) or `superseded`
 * (the session opened too many streams: this tab stays without live updates until shown again).
 */
export const ALERT_STREAM_END_EVENT = 'end';
/** After the browser gave up on a stream (or the session was found live after all), it opens a new one this much later. */
export const ALERT_STREAM_REOPEN_MS = 5_000;
export const AlertStreamEndReason = Type.Union([Type.Literal('session'), Type.Literal('superseded')]);
export type AlertStreamEndReason = Static<typeof AlertStreamEndReason>;

/** Readings of a patient that raised or counted on an alert (vitals Figure marks), as epoch seconds. */
export const AlertMarks = Type.Object({ t: Type.Array(Type.Number()) });
export type AlertMarks = Static<typeof AlertMarks>;
