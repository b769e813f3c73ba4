import { Type, type Static } from 'typebox';
import { RowId } from './common.ts';

/**
 * The kind under which a metric the measurement registry does not know waits in the unmatched
 * list, with the vendor's name (`metric`) and values (`value_1`, `value_2`) as sent: kept, never
 * dropped, and never an observation (migration 0960 holds `metric` to exactly these rows).
 */
export const UNKNOWN_METRIC_KIND = 'unknown';
/** Its unit: UCUM's unity, since the vendor's unit of a metric the portal does not know is not known. */
export const UNKNOWN_METRIC_UNIT = '1';

/** At most this many unmatched readings are attached in one request (one page of the list is 50). */
export const UNMATCHED_ATTACH_MAX = 500;

/** An admin attaches chosen unmatched readings to a patient, on purpose and audited. */
export const AttachUnmatchedBody = Type.Object(
  {
    // unmatched_readings.id is a bigint; a JavaScript number is exact up to MAX_SAFE_INTEGER.
    reading_ids: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
      minItems: 1,
      maxItems: UNMATCHED_ATTACH_MAX,
      uniqueItems: true,
    }),
    patient_id: RowId(),
  },
  { additionalProperties: false },
);
export type AttachUnmatchedBody = Static<typeof AttachUnmatchedBody>;

export const AttachUnmatchedResult = Type.Object({ attached: Type.Integer() });
export type AttachUnmatchedResult = Static<typeof AttachUnmatchedResult>;

export const unmatchedAttachPath = '/api/unmatched-readings/attach';

/** Why attaching unmatched readings was refused (the 4xx `message`). */
export const UnmatchedErrors = {
  patientUnknown: 'Patient does not exist',
  notUnmatched: 'Some of these readings are no longer unmatched; reload the list',
  unknownMetric:
    "Some of these readings are of a metric the portal does not know: they cannot become a patient's readings",
  otherOrganization: "Some of these readings came through another organization's source than the patient's",
} as const;

/** Texts of attaching readings on the Unmatched Readings page. */
export const UnmatchedTexts = {
  attach: 'Attach to Patient',
  attachTitle: 'Attach readings to a patient',
  attachConfirm: (n: number) =>
    `Attach ${n} reading${n === 1 ? '' : 's'} to this patient? They become the patient's readings and count for billing.`,
  patientId: 'Patient ID',
  select: 'Select',
  selectReading: (device: string, time: string) => `Select reading of ${device} at ${time}`,
  attached: (n: number) => `${n} reading${n === 1 ? '' : 's'} attached`,
} as const;
