/** Words of the monthly summary: the printable page, the PDF and the FHIR report say the same. */
export const SummaryTexts = {
  title: 'Monthly summary',
  patient: 'Patient',
  dateOfBirth: 'Date of birth',
  organization: 'Organization',
  timeZone: 'Time zone',
  programs: 'Programs',
  noPrograms: 'Not enrolled in a program',
  readings: 'Readings',
  noReadings: 'No readings this month',
  kind: 'Measurement',
  component: 'Value',
  count: 'Readings',
  mean: 'Mean',
  min: 'Min',
  max: 'Max',
  daysMeasured: 'Days measured',
  inTarget: 'In target',
  inTargetHelp: 'In target: readings the measurement’s classifier calls normal with the patient’s thresholds.',
  alerts: 'Alerts',
  alertsCount: 'Number',
  alertsRaised: 'Raised this month',
  alertsOpen: 'Still open',
  alertsResolvedAs: 'Resolved',
  noAlerts: 'No alerts this month',
  resolvedWithoutReason: 'Resolved (no reason)',
  notes: 'Notes',
  noNotes: 'No notes this month',
  noteDate: 'Date',
  noteAuthor: 'Author',
  noteText: 'Note',
  unknownAuthor: 'Unknown',
  time: 'Time and contacts',
  minutes: 'Minutes',
  liveContacts: 'Live contacts',
  activity: 'Activity',
  contact: 'Contact',
  noContact: '—',
  noTime: 'No time logged this month',
  codes: 'Codes earned',
  noCodes: 'No codes earned',
  code: 'Code',
  units: 'Units',
  servicePeriod: 'Service period',
  incomplete: 'The month is not over: figures may still change.',
  downloadPdf: 'Download PDF',
  downloadLetter: 'Download PDF (Letter)',
  print: 'Print',
  loadFailed: 'The summary could not be loaded.',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  thisMonth: 'This month’s summary',
  lastMonth: 'Last month’s summary',
  summaries: 'Monthly summaries',
  downloadArchive: 'Download all summaries',
  /** The FHIR DiagnosticReport's code text (no LOINC code names an RPM month summary). */
  reportCodeText: 'Remote patient monitoring monthly summary',
} as const;

/** 'October 2026' for '2026-10' (English, the portal's language; the month is a calendar month, no time zone). */
export function summaryMonthLabel(month: string): string {
  const [year, mon] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 1970, (mon ?? 1) - 1, 1)),
  );
}

/** A figure to its decimals, as the page and the PDF print it. */
export const summaryFigure = (value: number, decimals: number): string => value.toFixed(decimals);

/** A share 0..1 as a whole percentage. */
export const summaryShare = (share: number): string => `${Math.round(share * 100)} %`;

/** The short text of the FHIR report's conclusion and the PDF's opening line. */
export function summaryConclusion(s: {
  monthLabel: string;
  kinds: readonly { label: string; count: number; in_target_share: number }[];
  alerts: number;
  minutes: number;
}): string {
  const readings =
    s.kinds.length === 0
      ? 'no readings'
      : s.kinds.map((k) => `${k.label}: ${k.count} readings, ${summaryShare(k.in_target_share)} in target`).join('; ');
  return `${s.monthLabel}: ${readings}. Alerts raised: ${s.alerts}. Care management: ${s.minutes} minutes.`;
}
