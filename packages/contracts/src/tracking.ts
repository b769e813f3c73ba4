import { Type, type Static } from 'typebox';
import { IsoDate } from './common.ts';
import { InputText, PageOf } from './fields.ts';

/** What the time was spent on (the tracking dialog's choice; labels in texts/care-month.ts). */
export const TRACKING_ACTIVITIES = [
  'review_readings',
  'phone_call',
  'video_visit',
  'care_plan_update',
  'medication_review',
  'education',
  'care_coordination',
  'other',
] as const;
export type TrackingActivity = (typeof TRACKING_ACTIVITIES)[number];
export const TrackingActivitySchema = Type.Unsafe<TrackingActivity>({ type: 'string', enum: [...TRACKING_ACTIVITIES] });

/**
 * A real-time interactive contact with the patient or caregiver, as CMS counts one for 99457/99470:
 * a live phone call, a video visit or in person. An entry with a contact type is interactive.
 */
export const CONTACT_TYPES = ['phone', 'video', 'in_person'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
export const ContactTypeSchema = Type.Unsafe<ContactType>({ type: 'string', enum: [...CONTACT_TYPES] });
/** The most a reason for claiming more than the timer measured may say. */
export const TRACKING_ADJUSTMENT_REASON_MAX = 1000;

export const TrackingEntry = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  notes: Type.Union([Type.String(), Type.Null()]),
  /** A real-time interactive communication with the patient or caregiver (live call or video). */
  interactive: Type.Boolean(),
  activity: Type.Union([TrackingActivitySchema, Type.Null()]),
  contact_type: Type.Union([ContactTypeSchema, Type.Null()]),
  /** What the care timer measured, when the entry came from it. */
  measured_minutes: Type.Union([Type.Integer(), Type.Null()]),
  /** Why the entry claims more minutes than were measured. */
  adjustment_reason: Type.Union([Type.String(), Type.Null()]),
});
export type TrackingEntry = Static<typeof TrackingEntry>;

/** Minutes per calendar month (`YYYY-MM`), newest month first, for the months with entries. */
export const TrackingMonthTotal = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  minutes: Type.Integer(),
});
export type TrackingMonthTotal = Static<typeof TrackingMonthTotal>;
export const TRACKING_MONTH_TOTALS = 3;
export const TrackingEntryPage = Type.Object({
  ...PageOf(TrackingEntry).properties,
  /** The last TRACKING_MONTH_TOTALS months that have entries, whatever page is shown. */
  month_totals: Type.Array(TrackingMonthTotal),
});
export type TrackingEntryPage = Static<typeof TrackingEntryPage>;

/** Also the most tracking time one patient can have in one day, all entries together. */
export const TRACKING_MAX_MINUTES = 1440;
/** A tracking entry of no time records nothing billable; the form asks for at least this. */
export const TRACKING_MIN_MINUTES = 1;
export const TrackingEntryInput = Type.Object(
  {
    date: IsoDate,
    duration_minutes: Type.Integer({ minimum: TRACKING_MIN_MINUTES, maximum: TRACKING_MAX_MINUTES }),
    notes: Type.Optional(InputText(5000)),
    interactive: Type.Optional(Type.Boolean()),
    activity: Type.Optional(Type.Union([TrackingActivitySchema, Type.Null()])),
    /** Given: the entry is interactive (a contact type with interactive false is refused). */
    contact_type: Type.Optional(Type.Union([ContactTypeSchema, Type.Null()])),
    /**
     * The timer's minutes. duration_minutes may be lower; higher only with adjustment_reason
     * (TrackingErrors.adjustmentReasonRequired otherwise).
     */
    measured_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: TRACKING_MAX_MINUTES })),
    adjustment_reason: Type.Optional(InputText(TRACKING_ADJUSTMENT_REASON_MAX)),
  },
  { additionalProperties: false },
);
export type TrackingEntryInput = Static<typeof TrackingEntryInput>;
