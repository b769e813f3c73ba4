import { Type, type Static } from 'typebox';

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
