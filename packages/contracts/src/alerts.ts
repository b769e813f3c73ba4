import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Timestamp, RowId } from './common.ts';
import { ContactTypeSchema } from './tracking.ts';
import {
  BP_WINDOW_DAYS_MAX,
  BP_WINDOW_MIN_READINGS_MAX,
  DEFAULT_BP_WINDOW_DAYS,
  DEFAULT_BP_WINDOW_MIN_READINGS,
  DEFAULT_ESCALATION_MINUTES,
  DEFAULT_THRESHOLDS,
  ESCALATION_CONTACTS_MAX,
  ESCALATION_MINUTES_MAX,
  ORGANIZATION_ONLY_THRESHOLDS,
  THRESHOLD_KEYS,
  THRESHOLDS,
  type ThresholdDefinition,
  type ThresholdKey,
  type ThresholdKind,
  type ThresholdOverrides,
  type ThresholdValues,
} from './measurements/thresholds.ts';

/** A union of string literals from a list defined once, with the list's type as its static type. */
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));

/**
 * The rules readings (or the lack of them) are checked against, each with the measurement kind
 * it reads and its severity. One-reading rules: bp_crisis, bp_low_severe, glucose_very_low,
 * glucose_very_high, spo2_critical, glucose_low, fever, irregular_heartbeat. Window rules: the
 * blood-pressure and pulse means (bp_stage2, bp_low, pulse_low, pulse_high), two readings
 * (glucose_high within 24 h, spo2_low within an hour), weight gain against earlier weights.
 * Every rule classifies through the kind's one classifier (measurements/*.ts).
 */
export const ALERT_RULES = [
  'bp_crisis',
  'bp_low_severe',
  'bp_stage2',
  'bp_low',
  'pulse_low',
  'pulse_high',
  'irregular_heartbeat',
  'weight_gain_day',
  'weight_gain_week',
  'glucose_very_low',
  'glucose_low',
  'glucose_very_high',
  'glucose_high',
  'spo2_critical',
  'spo2_low',
  'fever',
  'stale_data',
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];
export const AlertRule = literals(ALERT_RULES);

/**
 * What an alert asks of the care team: critical (act now: call the patient today, escalates when
 * nobody acknowledges it), warning (review within the working day), info (for the record). A low
 * reading is not "high": the severity says how urgent, the rule says which way.
 */
export const ALERT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const AlertSeverity = literals(ALERT_SEVERITIES);

export const ALERT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export const AlertStatus = Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Literal('resolved')]);
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Each rule's kind (null: no kind, the lack of readings) and severity. */
export const ALERT_RULE_INFO: Record<AlertRule, { kind: ThresholdKind | null; severity: AlertSeverity }> = {
  bp_crisis: { kind: 'blood_pressure', severity: 'critical' },
  bp_low_severe: { kind: 'blood_pressure', severity: 'critical' },
  bp_stage2: { kind: 'blood_pressure', severity: 'warning' },
  bp_low: { kind: 'blood_pressure', severity: 'warning' },
  pulse_low: { kind: 'heart_rate', severity: 'warning' },
  pulse_high: { kind: 'heart_rate', severity: 'warning' },
  irregular_heartbeat: { kind: 'blood_pressure', severity: 'info' },
  weight_gain_day: { kind: 'weight', severity: 'warning' },
  weight_gain_week: { kind: 'weight', severity: 'warning' },
  glucose_very_low: { kind: 'glucose', severity: 'critical' },
  glucose_low: { kind: 'glucose', severity: 'warning' },
  glucose_very_high: { kind: 'glucose', severity: 'critical' },
  glucose_high: { kind: 'glucose', severity: 'warning' },
  spo2_critical: { kind: 'spo2', severity: 'critical' },
  spo2_low: { kind: 'spo2', severity: 'warning' },
  fever: { kind: 'temperature', severity: 'warning' },
  stale_data: { kind: null, severity: 'info' },
};
export const ALERT_RULE_SEVERITY: Record<AlertRule, AlertSeverity> = Object.fromEntries(
  ALERT_RULES.map((r) => [r, ALERT_RULE_INFO[r].severity]),
) as Record<AlertRule, AlertSeverity>;

/** Sort order of the worklist: critical first. */
export const ALERT_SEVERITY_RANK: Record<AlertSeverity, number> = { critical: 0, warning: 1, info: 2 };

/** The thresholds (measurements/thresholds.ts has each one's default and source). */
export const ALERT_THRESHOLD_KEYS = THRESHOLD_KEYS;
export type AlertThresholdKey = ThresholdKey;
export type AlertThresholdValues = ThresholdValues;
export const DEFAULT_ALERT_THRESHOLDS = DEFAULT_THRESHOLDS;

/** Days without a reading after which an RPM patient gets a stale-data alert, unless the organization says otherwise. */
export const DEFAULT_STALE_DAYS = 3;
export const STALE_DAYS_MAX = 90;
/** When the stale-data check runs (cron, UTC): every hour at minute 7. */
export const STALE_CHECK_CRON = '7 * * * *';
/** When the escalation check runs: every minute (a critical alert escalates within a minute of its deadline). */
export const ESCALATION_CHECK_CRON = '* * * * *';
export const ALERT_PAGE_MAX = 100;
/** Minutes a resolution may record (one tracking entry, as the tracking form allows). */
export const ALERT_RESOLVE_MAX_MINUTES = 1440;

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const thresholdSchema = (d: ThresholdDefinition) =>
  d.decimals === 0
    ? Type.Integer({ minimum: d.min, maximum: d.max })
    : Type.Number({ minimum: d.min, maximum: d.max, multipleOf: 10 ** -d.decimals });

/** Values that may be left to the default (null), for the keys a patient may have. */
const patientKeys = THRESHOLDS.filter((d) => !ORGANIZATION_ONLY_THRESHOLDS.includes(d.key));
const patientFields = Object.fromEntries(patientKeys.map((d) => [d.key, nullable(thresholdSchema(d))])) as Record<string, TSchema>;
const organizationFields = Object.fromEntries(THRESHOLDS.map((d) => [d.key, nullable(thresholdSchema(d))])) as Record<string, TSchema>;
export const AlertThresholdOverrides = Type.Object(patientFields, { additionalProperties: false }) as TObject;
export type AlertThresholdOverrides = ThresholdOverrides;
export const AlertThresholdSet = Type.Object(
  Object.fromEntries(THRESHOLDS.map((d) => [d.key, Type.Number()])) as Record<string, TSchema>,
) as TObject;

/** GET/PUT /api/patients/{id}/thresholds: what is set for the patient, and what applies (programs included). */
export const PatientThresholdsBody = AlertThresholdOverrides;
export type PatientThresholdsBody = ThresholdOverrides;
export const PatientThresholds = Type.Object({
  patient_id: Type.Integer(),
  overrides: AlertThresholdOverrides,
  effective: AlertThresholdSet,
});
export interface PatientThresholds {
  patient_id: number;
  overrides: ThresholdOverrides;
  effective: ThresholdValues;
}

/** The organization's settings besides the thresholds: the window, stale data, escalation. */
export const ALERT_ORGANIZATION_SETTING_KEYS = [
  'bp_window_days',
  'bp_window_min_readings',
  'stale_days',
  'escalation_minutes',
] as const;
export type AlertOrganizationSettingKey = (typeof ALERT_ORGANIZATION_SETTING_KEYS)[number];
export const DEFAULT_ALERT_ORGANIZATION_SETTINGS: Record<AlertOrganizationSettingKey, number> = {
  bp_window_days: DEFAULT_BP_WINDOW_DAYS,
  bp_window_min_readings: DEFAULT_BP_WINDOW_MIN_READINGS,
  stale_days: DEFAULT_STALE_DAYS,
  escalation_minutes: DEFAULT_ESCALATION_MINUTES,
};
const settingFields = {
  bp_window_days: nullable(Type.Integer({ minimum: 1, maximum: BP_WINDOW_DAYS_MAX })),
  bp_window_min_readings: nullable(Type.Integer({ minimum: 1, maximum: BP_WINDOW_MIN_READINGS_MAX })),
  stale_days: nullable(Type.Integer({ minimum: 1, maximum: STALE_DAYS_MAX })),
  escalation_minutes: nullable(Type.Integer({ minimum: 1, maximum: ESCALATION_MINUTES_MAX })),
};

/**
 * GET/PUT /api/organizations/{id}/alert-settings. `escalation_contact_ids`: staff of the
 * organization (active users) told when a critical alert escalates; empty: the patients' primary
 * providers only.
 */
export const AlertSettingsBody = Type.Object(
  {
    ...organizationFields,
    ...settingFields,
    escalation_contact_ids: Type.Array(RowId(), {
      maxItems: ESCALATION_CONTACTS_MAX,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
) as TObject;
export type AlertSettingsBody = ThresholdOverrides &
  Partial<Record<AlertOrganizationSettingKey, number | null>> & { escalation_contact_ids: number[] };
export const AlertSettings = Type.Object({
  organization_id: Type.Integer(),
  overrides: AlertSettingsBody,
  effective: Type.Intersect([
    AlertThresholdSet,
    Type.Object({
      bp_window_days: Type.Integer(),
      bp_window_min_readings: Type.Integer(),
      stale_days: Type.Integer(),
      escalation_minutes: Type.Integer(),
    }),
  ]),
});
export interface AlertSettings {
  organization_id: number;
  overrides: AlertSettingsBody;
  effective: ThresholdValues & Record<AlertOrganizationSettingKey, number>;
}

/**
 * What the alert last saw: the reading's components (canonical units) and time, or for a window
 * rule the mean and how many readings it took, for weight the gain, for stale data the days
 * without a reading. Which keys are present depends on the rule.
 */
export const AlertValues = Type.Object({
  systolic: Type.Optional(Type.Number()),
  diastolic: Type.Optional(Type.Number()),
  pulse: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  irregular_heartbeat: Type.Optional(Type.Boolean()),
  weight: Type.Optional(Type.Number()),
  glucose: Type.Optional(Type.Number()),
  spo2: Type.Optional(Type.Number()),
  temperature: Type.Optional(Type.Number()),
  measured_at: Type.Optional(Timestamp),
  /** A window rule: the values above are the mean of this many readings since `window_from`. */
  mean_of: Type.Optional(Type.Integer()),
  window_from: Type.Optional(Timestamp),
  /** Weight gain (kg) against the earlier weight it was compared with. */
  gain: Type.Optional(Type.Number()),
  days_without_reading: Type.Optional(Type.Integer()),
});
export type AlertValues = Static<typeof AlertValues>;

/** Why an alert was resolved: the person's choice, or the portal's (enrollment ended). */
export const RESOLUTION_REASONS = [
  'reached_patient',
  'medication_changed',
  'device_or_technique',
  'referred',
  'no_action_needed',
] as const;
export const SYSTEM_RESOLUTION_REASONS = ['enrollment_ended', 'readings_resumed'] as const;
export type ResolutionReason = (typeof RESOLUTION_REASONS)[number] | (typeof SYSTEM_RESOLUTION_REASONS)[number];
export const ResolutionReasonChoice = literals(RESOLUTION_REASONS);
const ResolutionReason = literals([...RESOLUTION_REASONS, ...SYSTEM_RESOLUTION_REASONS]);

export const Alert = Type.Object({
  id: Type.Integer(),
  patient_id: Type.Integer(),
  patient_name: Type.String(),
  rule: AlertRule,
  severity: AlertSeverity,
  status: AlertStatus,
  /** Readings that met the rule while it was open. */
  count: Type.Integer(),
  first_at: Timestamp,
  last_at: Timestamp,
  last_values: AlertValues,
  primary_provider_id: Type.Union([Type.Integer(), Type.Null()]),
  /** A crisis reading: true once a second severe reading came within 15 minutes; null for other rules. */
  confirmed: Type.Union([Type.Boolean(), Type.Null()]),
  /** When the condition stopped being met (the mean back in range); the alert stays until resolved. */
  cleared_at: Type.Union([Timestamp, Type.Null()]),
  acknowledged_at: Type.Union([Timestamp, Type.Null()]),
  acknowledged_by_name: Type.Union([Type.String(), Type.Null()]),
  /** Acknowledged until then; after it, the alert needs attention again. */
  snoozed_until: Type.Union([Timestamp, Type.Null()]),
  /** A critical alert nobody acknowledged in time: when it went to the escalation contacts. */
  escalated_at: Type.Union([Timestamp, Type.Null()]),
  resolved_at: Type.Union([Timestamp, Type.Null()]),
  resolution_reason: Type.Union([ResolutionReason, Type.Null()]),
});
export type Alert = Static<typeof Alert>;

/** GET /api/alerts: one patient's alerts, or the organization's, one per row (the patient page). */
export const AlertListQuery = Type.Object(
  {
    status: Type.Optional(AlertStatus),
    severity: Type.Optional(AlertSeverity),
    provider_id: Type.Optional(RowId()),
    patient_id: Type.Optional(RowId()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_PAGE_MAX, default: 25 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type AlertListQuery = Static<typeof AlertListQuery>;
export const AlertPage = Type.Object({ items: Type.Array(Alert), total: Type.Integer() });
export type AlertPage = Static<typeof AlertPage>;

/**
 * GET /api/alerts/worklist: one row per patient with active alerts (open or acknowledged, unless
 * `status` says otherwise), all the patient's matching alerts in the row. Default order:
 * severity (the row's most severe alert), then escalated first, then the longest waiting (the
 * oldest open alert's first_at) first. Filters and sort are kept in the page's URL.
 */
export const WORKLIST_SORTS = ['priority', 'patient', 'waiting', 'last_reading'] as const;
export type WorklistSort = (typeof WORKLIST_SORTS)[number];
export const WorklistQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('open'), Type.Literal('acknowledged')])),
    severity: Type.Optional(AlertSeverity),
    rule: Type.Optional(AlertRule),
    provider_id: Type.Optional(RowId()),
    sort: Type.Optional(literals(WORKLIST_SORTS)),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_PAGE_MAX, default: 25 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type WorklistQuery = Static<typeof WorklistQuery>;
export const WorklistRow = Type.Object({
  patient_id: Type.Integer(),
  patient_name: Type.String(),
  primary_provider_id: Type.Union([Type.Integer(), Type.Null()]),
  /** The most severe of the row's alerts. */
  severity: AlertSeverity,
  escalated: Type.Boolean(),
  /** first_at of the oldest alert not yet acknowledged (or of the oldest, when all are). */
  waiting_since: Timestamp,
  last_reading_at: Type.Union([Timestamp, Type.Null()]),
  alerts: Type.Array(Alert),
});
export type WorklistRow = Static<typeof WorklistRow>;
export const WorklistPage = Type.Object({
  items: Type.Array(WorklistRow),
  /** Patients matching the filters (rows). */
  total: Type.Integer(),
  /** Alerts in those rows: what the badge shows for the default filters. */
  alerts: Type.Integer(),
});
export type WorklistPage = Static<typeof WorklistPage>;

/**
 * GET /api/alerts/summary: the badge and the dashboard, counting exactly what the worklist's
 * default view shows (active alerts: open and acknowledged, of active enrolled patients).
 */
export const AlertSummary = Type.Object({
  /** Active alerts (the badge). */
  open: Type.Integer(),
  /** Patients with active alerts (the worklist's rows). */
  patients: Type.Integer(),
  by_severity: Type.Object({ critical: Type.Integer(), warning: Type.Integer(), info: Type.Integer() }),
  escalated: Type.Integer(),
  stale_patients: Type.Integer(),
});
export type AlertSummary = Static<typeof AlertSummary>;

/** POST /api/alerts/{id}/acknowledge: optionally snoozed until a time (in the future, at most 7 days ahead). */
export const ALERT_SNOOZE_MAX_HOURS = 24 * 7;
export const AcknowledgeAlertBody = Type.Object(
  { snooze_until: Type.Optional(Timestamp) },
  { additionalProperties: false },
);
export type AcknowledgeAlertBody = Static<typeof AcknowledgeAlertBody>;

/** POST /api/alerts/{id}/resolve */
export const ResolveAlertBody = Type.Object(
  {
    reason: ResolutionReasonChoice,
    note: Type.String({ minLength: 1, maxLength: 10000, pattern: '\\S' }),
    minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_RESOLVE_MAX_MINUTES })),
    /** The live contact the minutes included, if any: the tracking entry is then interactive. */
    contact_type: Type.Optional(Type.Union([ContactTypeSchema, Type.Null()])),
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

/** Readings of a patient that raised or counted on an alert (vitals Figure marks), as epoch seconds. */
export const AlertMarks = Type.Object({ t: Type.Array(Type.Number()) });
export type AlertMarks = Static<typeof AlertMarks>;
