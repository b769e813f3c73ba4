import type { OutreachOutcome } from '../outreach.ts';

/** Texts of the patient page's outreach section and its dialog. */
export const OutreachTexts = {
  title: 'Outreach',
  record: 'Record outreach',
  outcome: 'Outcome',
  notes: 'Notes',
  by: 'By',
  when: 'When',
  none: 'No outreach recorded yet.',
  failedToLoad: 'Failed to load outreach',
  saved: 'Outreach recorded',
  saveFailed: 'Failed to record outreach',
  outcomeRequired: 'Choose an outcome',
  notesTooLong: 'Notes can be at most 2,000 characters',
  unknownAuthor: 'Unknown user',
  discardTitle: 'Discard this outreach?',
  outcomes: {
    called: 'Called',
    left_message: 'Left message',
    device_problem: 'Device problem',
    shipped_replacement: 'Shipped replacement',
  } satisfies Record<OutreachOutcome, string>,
} as const;
