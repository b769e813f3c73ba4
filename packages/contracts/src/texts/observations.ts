/**
 * Texts of the patient page's measurement panels (every kind of the registry beside blood
 * pressure), the patient's programs, the organization's display units and the device types. A
 * kind's own words (its label, its marks, its guidance) stay in its registry file.
 */
export const ObservationTexts = {
  measurements: 'Measurements',
  latest: 'Latest',
  noMeasurements: 'No other measurements yet.',
  noValue: '—',
  levels: { low: 'Low', high: 'High', critical: 'Critical' },
  noReadingsOfKind: (kind: string) => `No ${kind.toLowerCase()} readings yet.`,
  failedToLoad: (kind: string) => `Failed to load ${kind.toLowerCase()} readings`,
  failedToLoadMeasurements: 'Failed to load measurements',
  chartLabel: (kind: string) => `${kind} chart`,
  chartEmpty: 'No readings in the last 90 days to chart.',
  mark: 'Mark',
  time: 'Time',
  source: 'Source',
  readingCount: (n: number) => (n === 1 ? '1 reading' : `${n} readings`),

  /** Not "Add reading": the spec's blood-pressure button is "Add Reading", and both are on the page. */
  addMeasurement: 'Add measurement',
  addReadingOf: (kind: string) => `Add ${kind.toLowerCase()} reading`,
  kind: 'Measurement',
  measuredAt: 'Measured at',
  measuredAtRequired: 'Enter when it was measured.',
  enterNumber: (component: string) => `Enter the ${component.toLowerCase()} as a number.`,
  discardReading: 'Discard this reading?',
  readingAdded: 'Reading added',
  failedToAddReading: 'Failed to add the reading',
  cancel: 'Cancel',
  save: 'Save',

  programs: 'Programs',
  noPrograms: 'No programs',
  editPrograms: 'Edit programs',
  discardPrograms: 'Discard these changes?',
  programsSaved: 'Programs saved',
  failedToSavePrograms: 'Failed to save the programs',
  failedToLoadPrograms: 'Failed to load the programs',

  displayUnits: 'Display units',
  organization: 'Organization',
  displayUnitsHelp: 'The unit each measurement is shown and typed in, for everyone in the organization.',
  displayUnitFor: (kind: string, organization: string) => `${kind}: ${organization}`,
  displayUnitsSaved: 'Display units saved',
  failedToSaveDisplayUnits: 'Failed to save the display units',
  failedToLoadDisplayUnits: 'Failed to load the display units',
} as const;

/** The device types' names; a type not listed here (a new kind's device) shows as it is stored. */
export const DeviceTypeLabels: Readonly<Record<string, string>> = {
  cuff: 'Blood pressure cuff',
  scale: 'Scale',
  glucometer: 'Glucometer',
  pulse_oximeter: 'Pulse oximeter',
  thermometer: 'Thermometer',
};

export function deviceTypeLabel(type: string): string {
  return Object.hasOwn(DeviceTypeLabels, type) ? DeviceTypeLabels[type]! : type;
}
