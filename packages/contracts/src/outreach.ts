import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { PageOf } from './fields.ts';

/** What came of reaching out to a patient (mostly one who stopped measuring). */
export const OUTREACH_OUTCOMES = ['called', 'left_message', 'device_problem', 'shipped_replacement'] as const;
export type OutreachOutcome = (typeof OUTREACH_OUTCOMES)[number];
export const OutreachOutcomeSchema = Type.Unsafe<OutreachOutcome>({ type: 'string', enum: [...OUTREACH_OUTCOMES] });
export const OUTREACH_NOTES_MAX_LENGTH = 2000;
export const OUTREACH_PAGE_SIZE = 10;

/** One outreach on a patient's record: what came of it, who recorded it and when. */
export const Outreach = Type.Object({
  id: Type.Integer(),
  patient_id: Type.Integer(),
  outcome: OutreachOutcomeSchema,
  notes: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  user_name: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type Outreach = Static<typeof Outreach>;

/** GET /api/patients/{id}/outreach: newest first. */
export const OutreachPage = PageOf(Outreach);
export type OutreachPage = Static<typeof OutreachPage>;

/** POST /api/patients/{id}/outreach: blank notes are stored as none. */
export const OutreachInput = Type.Object(
  {
    outcome: OutreachOutcomeSchema,
    notes: Type.Optional(Type.Union([Type.String({ maxLength: OUTREACH_NOTES_MAX_LENGTH }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type OutreachInput = Static<typeof OutreachInput>;
