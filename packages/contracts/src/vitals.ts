import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { PageOf, PatientPageQuery } from './fields.ts';

/**
 * The kinds the spec's vitals answer (and today's FHIR Observation mapping) carries: blood
 * pressure with its pulse, and a heart rate measured alone. Other kinds are served by
 * /api/patients/{id}/observations.
 */
export const VITALS_KINDS = ['blood_pressure', 'heart_rate'] as const;

export const Vital = Type.Object({
  created_at: Timestamp,
  /** Null on a heart rate measured alone (no blood pressure). */
  systolic: Type.Union([Type.Integer(), Type.Null()]),
  diastolic: Type.Union([Type.Integer(), Type.Null()]),
  pulse: Type.Union([Type.Integer(), Type.Null()]),
  /** The device id the reading came from, or 'manual' for one typed in by staff. */
  source: Type.String(),
});
export type Vital = Static<typeof Vital>;

export const VitalPage = PageOf(Vital);

/**
 * GET /api/patients/{id}/vitals: one page, optionally of the readings measured from `from`
 * (inclusive) to `to` (exclusive); `total` then counts the readings of that range.
 */
export const VitalPageQuery = Type.Object(
  {
    ...PatientPageQuery.properties,
    from: Type.Optional(Timestamp),
    to: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type VitalPageQuery = Static<typeof VitalPageQuery>;
export type VitalPage = Static<typeof VitalPage>;

/** The chart's data: the newest readings of the last `days` days, oldest first, as columns. */
export const VITAL_SERIES_MAX_POINTS = 10_000;
export const VitalSeriesQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660, default: 90 })) },
  { additionalProperties: false },
);
export type VitalSeriesQuery = Static<typeof VitalSeriesQuery>;
export const VitalSeries = Type.Object({
  /** Seconds since the epoch (UTC). */
  t: Type.Array(Type.Number()),
  systolic: Type.Array(Type.Integer()),
  diastolic: Type.Array(Type.Integer()),
});
export type VitalSeries = Static<typeof VitalSeries>;

// The table marks come from the measurement registry's one classifier (measurements/blood-pressure.ts).
