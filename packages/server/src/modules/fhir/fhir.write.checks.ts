// A FHIR write's entries checked one by one, and the refusals a check ends in with their answers.
import { FhirErrors } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { ReadingRejected } from '../ingestion/index.ts';
import type { ParsedObservation } from './fhir-observation.ts';
import { attributedPatients } from './fhir.repository.ts';
/** A parsed entry, or why it was refused. */
export type Checked = { ok: true; parsed: ParsedObservation } | { ok: false; error: ReadingRejected };

/** Runs a check; a refusal of the input becomes the entry's refusal, anything else stays a fault. */
export function attempt(run: () => ParsedObservation): Checked {
  try {
    return { ok: true, parsed: run() };
  } catch (err) {
    if (err instanceof ReadingRejected) return { ok: false, error: err };
    throw err;
  }
}

/**
 * Checks each `subject` against the patient who had the device at measurement time. A subject
 * that cannot be confirmed (nobody had the device then) is refused rather than dropped: the
 * sender said whose reading it is, and parking it unmatched would later file it under whoever
 * gets the device, silently contradicting the sender.
 */
export async function checkSubjects(db: Queryable, checked: Checked[], at: (i: number) => string): Promise<void> {
  const withSubject = checked.flatMap((c, i) => (c.ok && c.parsed.subjectPatientId !== null ? [i] : []));
  const owners = await attributedPatients(
    db,
    withSubject.map((i) => {
      const r = (checked[i] as { parsed: ParsedObservation }).parsed.reading;
      return { device: r.deviceIdentifier, at: r.measuredAt };
    }),
  );
  withSubject.forEach((i, k) => {
    const c = checked[i] as { ok: true; parsed: ParsedObservation };
    const owner = owners[k] ?? null;
    if (owner === c.parsed.subjectPatientId) return;
    const field = `${at(i)}subject`;
    checked[i] = {
      ok: false,
      error: new ReadingRejected(
        owner === null ? FhirErrors.subjectUnverifiable(field) : FhirErrors.subjectMismatch(field),
        c.parsed.reading.deviceIdentifier,
      ),
    };
  });
}

/** An entry about a patient of another organization than the writing source's: refused, 403. */
export class OtherOrganization extends ReadingRejected {}

/** A conditional create whose criteria match several Observations: 412, nothing stored. */
export class SeveralMatches extends ReadingRejected {}

/**
 * A conditional create whose criteria match one Observation: not an error, the answer is that
 * Observation (200, nothing stored). Carried as a refusal so that the checks below pass it by.
 */
export class AlreadyExists extends ReadingRejected {
  constructor(public readonly observationId: number) {
    super('Already exists');
  }
}

export const refusalStatus = (error: ReadingRejected): 400 | 403 | 409 | 412 =>
  error instanceof OtherOrganization ? 403 : error instanceof SeveralMatches ? 412 : error.status === 409 ? 409 : 400;

export const REFUSAL_ANSWERS = {
  400: { status: '400 Bad Request', code: 'invalid' },
  403: { status: '403 Forbidden', code: 'security' },
  409: { status: '409 Conflict', code: 'conflict' },
  412: { status: '412 Precondition Failed', code: 'multiple-matches' },
} as const;
