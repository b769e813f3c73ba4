/**
 * Texts of the measurement kinds that every kind shares: the refusals of a reading's values (the
 * JSON `message` of a 400, the form's error). Words that belong to one kind (its label, its marks)
 * live in that kind's file, so that a kind stays one file.
 */
export const MeasurementTexts = {
  /** e.g. "Weight 512 kg is outside the plausible range 20–350 kg." */
  outsideRange: (component: string, value: string, min: string, max: string, unit: string) =>
    `${component} ${value} ${unit} is outside the plausible range ${min}–${max} ${unit}.`,
  missingComponent: (component: string, kind: string) => `${component} is required for a ${kind} reading.`,
  notANumber: (component: string) => `${component} must be a number.`,
  unknownComponent: (code: string, kind: string) => `${kind} has no value named "${code}".`,
  unknownUnit: (unit: string, component: string) => `${unit} is not a unit of ${component}.`,
  unknownKind: (kind: string) => `Unknown measurement kind "${kind}".`,
} as const;
