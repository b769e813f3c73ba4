import {
  BillingCodes,
  DEVICE_DAYS_FULL,
  DEVICE_DAYS_SHORT,
  MANAGEMENT_MINUTES_FULL,
  MANAGEMENT_MINUTES_SHORT,
  type DeviceOutlook,
} from '../billing.ts';

/** RPM billing: the report page, the patient page's progress and evidence, and the server's refusals. */
export const BillingTexts = {
  title: 'Billing',
  month: 'Month',
  organization: 'Organization',
  allOrganizations: 'All organizations',
  patient: 'Patient',
  period: 'Current period',
  deviceDays: 'Days with data',
  minutes: 'Minutes',
  interactive: 'Interactive contact',
  codes: 'Codes',
  missing: 'Missing',
  totals: 'Totals',
  noRows: 'No enrolled patients in this month.',
  noCodes: 'None',
  failedToLoad: 'Failed to load billing',
  exportCsv: 'Export CSV',
  closeMonth: 'Close month',
  closeMonthTitle: 'Close this month?',
  closeMonthBody: 'Marks the month as submitted. Tracking time dated in it can no longer be added or changed.',
  monthClosed: 'Closed: submitted for billing',
  monthClosedToast: 'Month closed',
  failedToClose: 'Failed to close the month',
  progressTitle: 'Billing this month',
  progressDeviceDays: (days: number) => `Days with device data: ${days} of 16`,
  progressMinutes: (minutes: number) => `Minutes this month: ${minutes} of 20`,
  progressInteractive: (yes: boolean) => `Interactive contact: ${yes ? 'yes' : 'no'}`,
  evidenceLink: 'Evidence',
  evidenceTitle: 'Billing evidence',
  evidenceReadingDays: 'Days with device readings',
  evidenceEntries: 'Tracking time entries',
  evidenceNoDays: 'No device readings in this month.',
  evidenceNoEntries: 'No tracking time in this month.',
  readings: 'Readings',
  date: 'Date',
  loggedBy: 'Logged by',
  notes: 'Notes',
  print: 'Print',
  backToPatient: 'Back to the patient',
  yes: 'Yes',
  no: 'No',
  interactiveCheckbox: 'Real-time interactive contact (live call or video)',
  timeZoneLabel: 'Time zone for billing days',
  missingDeviceDays: (days: number, code: string) =>
    `${days} more ${days === 1 ? 'day' : 'days'} of readings for ${code}`,
  missingMinutes: (minutes: number, code: string) =>
    `${minutes} more ${minutes === 1 ? 'minute' : 'minutes'} for ${code}`,
  missingInteractive: 'an interactive contact is needed',
  missingNoReadings: 'no device readings yet',
} as const;

/** Header row of the billing CSV export, in column order. */
export const BillingCsvColumns = [
  'Patient',
  'Date of birth',
  'Insurance type',
  'Policy number',
  'Primary provider',
  'Organization',
  'Code',
  'Units',
  'Service period start',
  'Service period end',
] as const;

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * The /billing page's worklist and month actions, and the evidence page's patient block and day
 * counts. Each count says what it counts (the 30-day period or the calendar month) and what the
 * code needs, never "N of 16".
 */
export const BillingPageTexts = {
  views: 'Billing views',
  worklistTab: 'This month',
  reportTab: 'Report',
  worklistTitle: 'Billing worklist',
  worklistAsOf: (month: string, today: string) => `${month}, as of ${today}`,
  provider: 'Provider',
  program: 'Program',
  allProviders: 'All providers',
  allPrograms: 'All programs',
  providerNeedsOrganization: 'Choose an organization to filter by provider',
  atRisk: 'At risk',
  deviceDays: 'Days with device data',
  deviceDaysCell: (n: number, left: number) => `${days(n)}, ${days(left)} left in the period`,
  /** No 30-day period yet: it starts with the first device reading (typed-in readings do not count). */
  noDevicePeriod: 'No device readings yet',
  outlook: {
    full_earned: `${DEVICE_DAYS_FULL} days reached (${BillingCodes.device})`,
    full_reachable: `${DEVICE_DAYS_FULL} days still reachable (${BillingCodes.device})`,
    short_earned: `${DEVICE_DAYS_SHORT} days reached (${BillingCodes.deviceShort}); ${DEVICE_DAYS_FULL} out of reach`,
    short_reachable: `Only ${DEVICE_DAYS_SHORT} days still reachable (${BillingCodes.deviceShort})`,
    none: `Neither ${DEVICE_DAYS_SHORT} nor ${DEVICE_DAYS_FULL} days reachable`,
  } satisfies Record<DeviceOutlook, string>,
  minutes: 'Minutes',
  minutesCell: (minutes: number, next: number) => `${minutes} (next: ${next})`,
  liveContact: 'Live contact',
  action: 'Action',
  lastReading: 'Last reading',
  lastOutreach: 'Last outreach',
  /** The phone's sort field's choice of no column: the worklist's own ranking. */
  serverOrder: 'Most still to earn first',
  never: 'Never',
  noWorklistRows: 'No enrolled patients match these filters.',
  failedToLoadWorklist: 'Failed to load the worklist',
  closeMonthCovers: 'It closes the month for every organization:',
  closedAt: (when: string) => `Closed ${when}`,
  claimsSentAt: (when: string) => `Claims sent ${when}`,
  reopenMonth: 'Reopen month',
  reopenTitle: 'Reopen this month?',
  reopenBody:
    'Tracking time, readings and enrollment dated in the month can change again until it is closed anew. The reason is kept with the reopening.',
  reopenReason: 'Reason',
  reopenReasonRequired: 'Give the reason for reopening the month',
  reopenedToast: 'Month reopened',
  failedToReopen: 'Failed to reopen the month',
  markClaimsSent: 'Mark claims sent',
  claimsSentTitle: 'Mark the claims as sent?',
  claimsSentBody: 'Records that the claims of this month went to the payer. The month can no longer be reopened.',
  claimsSentToast: 'Claims marked as sent',
  failedClaimsSent: 'Failed to mark the claims as sent',
  evidencePatient: 'Patient',
  dateOfBirth: 'Date of birth',
  insurance: 'Insurance (member ID)',
  devices: 'Devices (serial)',
  orderingProvider: 'Ordering provider',
  consentDate: 'Consent date',
  diagnosisCodes: 'Diagnosis codes (ICD-10-CM)',
  notRecorded: 'Not recorded',
  evidenceCounts: 'What the codes rest on',
  evidencePeriodDays: (n: number, start: string, end: string) =>
    `Days with device data in the 30-day period ${start} – ${end}: ${days(n)} (${DEVICE_DAYS_FULL} needed for ${BillingCodes.device}, ${DEVICE_DAYS_SHORT} for ${BillingCodes.deviceShort})`,
  evidenceNoPeriod: 'Days with device data in a 30-day period: none (no device readings yet)',
  evidenceMonthMinutes: (minutes: number, month: string) =>
    `Minutes in the calendar month ${month}: ${minutes} (${MANAGEMENT_MINUTES_SHORT} with a live contact for ${BillingCodes.managementShort}, ${MANAGEMENT_MINUTES_FULL} for ${BillingCodes.management})`,
  evidenceLiveContact: (yes: boolean) => `Live interactive contact in the month: ${yes ? 'yes' : 'no'}`,
  evidenceMonthDays: (n: number, month: string) =>
    `Days in the calendar month ${month} with device readings: ${days(n)}`,
  inPeriod: 'In the 30-day period',
  evidenceEntriesCount: (n: number, minutes: number) =>
    `Tracking time entries in the calendar month: ${n} (${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
  activity: 'Activity',
  /** The pager under the worklist and the report (the position is announced as it changes). */
  pager: 'Pages',
  showing: (from: number, to: number, total: number) =>
    `Showing ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  rowsPerPage: 'Rows per page',
  pageButton: { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' },
} as const;
