import { Type, type Static } from 'typebox';
import { IsoDate } from './common.ts';
import { InputText, PageOf } from './fields.ts';

export const TrackingSession = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  notes: Type.Union([Type.String(), Type.Null()]),
  /** A real-time interactive communication with the patient or caregiver (live call or video). */
  interactive: Type.Boolean(),
});
export type TrackingSession = Static<typeof TrackingSession>;

/** Minutes per calendar month (`YYYY-MM`), newest month first, for the months with entries. */
export const TrackingMonthTotal = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  minutes: Type.Integer(),
});
export type TrackingMonthTotal = Static<typeof TrackingMonthTotal>;
export const TRACKING_MONTH_TOTALS = 3;
export const TrackingSessionPage = Type.Object({
  ...PageOf(TrackingSession).properties,
  /** The last TRACKING_MONTH_TOTALS months that have entries, whatever page is shown. */
  month_totals: Type.Array(TrackingMonthTotal),
});
export type TrackingSessionPage = Static<typeof TrackingSessionPage>;

/** Also the most tracking time one patient can have in one day, all entries together. */
export const TRACKING_MAX_MINUTES = 1440;
/** A tracking entry of no time records nothing billable; the form asks for at least this. */
export const TRACKING_MIN_MINUTES = 1;
export const TrackingSessionInput = Type.Object(
  {
    date: IsoDate,
    duration_minutes: Type.Integer({ minimum: TRACKING_MIN_MINUTES, maximum: TRACKING_MAX_MINUTES }),
    notes: Type.Optional(InputText(5000)),
    interactive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TrackingSessionInput = Static<typeof TrackingSessionInput>;
