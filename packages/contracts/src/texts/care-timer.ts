import type { TimerStart } from '../organizations.ts';

/**
 * The care timer on a patient's page (issue 26): how it counts, where it keeps its state, and
 * its words.
 */

/** No activity (the idle sign-out's ACTIVITY_EVENTS) for this long pauses the care timer. */
export const CARE_TIMER_IDLE_MS = 2 * 60_000;
/**
 * A timer left (page closed, reloaded, or another page of the portal opened) and found again
 * within this time goes on counting; found later, its time is an unlogged draft.
 */
export const CARE_TIMER_RESUME_MS = 60_000;
/**
 * Every localStorage key of the care timer starts with this (then the user's id and the
 * patient's id); sign-out removes them all by this prefix. Values hold numbers only.
 */
export const CARE_TIMER_STORAGE_PREFIX = 'rpm.care-timer.';

/**
 * Measured time in whole minutes: rounded to the nearest minute (half a minute up), at least
 * one for any time counted, at most a day (TRACKING_MAX_MINUTES).
 */
export function measuredMinutes(ms: number): number {
  return Math.min(1440, Math.max(1, Math.round(ms / 60_000)));
}

/**
 * Claiming more minutes than the timer measured needs a reason (TrackingErrors.adjustmentReasonRequired);
 * lowering them does not. The tracking form checks this before the server does.
 */
export function raiseNeedsReason(minutes: number, measured: number | null | undefined, reason: string | null | undefined): boolean {
  return measured !== null && measured !== undefined && minutes > measured && !reason?.trim();
}

/** Ways the timer can start, as an organization setting. */
export const TimerStartLabels: Record<TimerStart, string> = {
  open: 'When a provider opens the patient',
  click: 'When the user clicks Start',
};

export const CareTimerTexts = {
  title: 'Care timer',
  start: 'Start timer',
  pause: 'Pause timer',
  stop: 'Stop timer and log time',
  running: 'Counting',
  pausedByUser: 'Paused',
  pausedHidden: 'Paused while the page is hidden',
  pausedIdle: 'Paused: no activity for 2 minutes',
  notStarted: 'Not started',
  announceStarted: 'Care timer started',
  announcePaused: 'Care timer paused',
  announceResumed: 'Care timer resumed',
  announceStopped: 'Care timer stopped',
  /** The tracking dialog opened from the timer. */
  logTitle: 'Log timed care',
  measuredHelp: (minutes: number) => `The timer measured ${minutes} min; you may lower it. More needs a reason.`,
  activity: 'Activity',
  activityNone: 'Not specified',
  contactType: 'Type of contact',
  /** The alert resolve dialog: whether its minutes included a live contact, and which. */
  resolveContact: 'Live contact with the patient or caregiver',
  noContact: 'None',
  adjustmentReason: 'Reason for claiming more than measured',
  draft: (minutes: number, date: string) => `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} not logged from ${date}`,
  draftLog: 'Log',
  draftDiscard: 'Discard',
  draftDiscarded: 'Unlogged time discarded',
  activityColumn: 'Activity',
  contactColumn: 'Live contact',
  timerStartTitle: 'Care timer start',
  timerStartHelp:
    'When the care timer on a patient’s page starts for providers. Administrators and other roles always start it with a click.',
  timerStartLabel: (organization: string) => `Care timer start: ${organization}`,
} as const;
