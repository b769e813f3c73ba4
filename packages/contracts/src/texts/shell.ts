import type { SortOrder } from '../patients.ts';

/** Texts of the shell, the error pages, the discard confirmations and field checks beyond the spec's own. */
export const UxTexts = {
  openNavigation: 'Open navigation menu',
  closeNavigation: 'Close navigation menu',
  discardNoteTitle: 'Discard this note?',
  discardTrackingTitle: 'Discard this tracking entry?',
  discardBody: 'What you typed will be lost.',
  keepEditing: 'Keep editing',
  discard: 'Discard',
  trackingMinutesRange: 'Enter whole minutes from 1 to 1,440',
  trackingDateRequired: 'Date is required',
  passwordRequired: 'Enter your password',
  currentPasswordRequired: 'Enter your current password',
  resetCodeRequired: 'Enter the code from the email',
  resetPasswordIntro: 'Enter the code from the reset email and choose a new password.',
  haveCode: 'I have a code',
  notFoundTitle: 'Page not found',
  notFoundBody: 'There is nothing at this address. The link may be old or mistyped.',
  patientNotFoundTitle: 'Patient not found',
  patientNotFoundBody: 'There is no patient with this number that you can see. It may belong to another organization.',
  badLinkTitle: 'This link is not valid',
  badLinkBody: 'The address does not name a patient. It may have been cut off or mistyped.',
  backToPatients: 'Back to patients',
  backToDashboard: 'Back to the dashboard',
  /** A list's sort where its heading row is not shown (a phone): the column, then the direction. */
  sortBy: 'Sort by',
  sortOrder: 'Order',
  sortOrderNames: { asc: 'Ascending', desc: 'Descending' } satisfies Record<SortOrder, string>,
} as const;
