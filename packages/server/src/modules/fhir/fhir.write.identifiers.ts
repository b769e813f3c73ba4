// The sender's identifiers of a FHIR write: conditional creates, one Observation per identifier, keeping them.
import { FhirErrors } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { ReadingRejected, type AuthenticatedSource } from '../ingestion/index.ts';
import { parseToken } from './fhir-search.ts';
import { type Token } from './fhir.repository.ts';
import { observationsByIdentifier, storeIdentifiers } from './fhir.identifiers.repository.ts';
import { AlreadyExists, SeveralMatches, type Checked } from './fhir.write.checks.ts';
import type { EntryOutcome } from './fhir.write.store.ts';
/**
 * The identifiers a conditional create's criteria name (`If-None-Exist` or a Bundle entry's
 * `request.ifNoneExist`): R4 allows any search, this server `identifier` (token, comma for or,
 * `?` optional), the one search that names an Observation without its patient.
 */
export function ifNoneExistTokens(criteria: string, field: string): Token[] {
  const params = new URLSearchParams(
    criteria
      .trim()
      .replace(/^\?/, '')
      .replace(/^Observation\?/, ''),
  );
  const names = [...new Set([...params.keys()])];
  if (names.length !== 1 || names[0] !== 'identifier') throw new ReadingRejected(FhirErrors.ifNoneExist(field));
  const tokens = params
    .getAll('identifier')
    .flatMap((v) => v.split(','))
    .map((v) => parseToken(v.trim()));
  if (tokens.length === 0 || tokens.some((t) => t.value === '' || t.value.length > 255))
    throw new ReadingRejected(FhirErrors.ifNoneExist(field));
  return tokens;
}

/**
 * What a conditional create's criteria find within the writer's organization: nothing (go on and
 * create), one Observation (answer it), or several (412).
 */
export async function conditionalMatch(
  db: Queryable,
  source: AuthenticatedSource,
  criteria: string,
  field: string,
): Promise<ReadingRejected | null> {
  const matches = await observationsByIdentifier(db, source.organizationId, ifNoneExistTokens(criteria, field), 2);
  if (matches.length === 0) return null;
  if (matches.length > 1) return new SeveralMatches(FhirErrors.ifNoneExistMatches(matches.length));
  return new AlreadyExists(matches[0]!.observation_id);
}

/** The measurement an identifier names: its device and instant (a panel's pulse shares both). */
const measurementOf = (device: string, at: Date) => `${device.trim().toLowerCase()}|${at.getTime()}`;

/**
 * Refuses, in place, each accepted entry carrying an identifier that already names another
 * measurement of the organization (stored before, or earlier in this request): 409, so that a
 * sender's identifier keeps naming one Observation. A retry of the same measurement passes.
 */
export async function keepIdentifiersUnique(
  db: Queryable,
  source: AuthenticatedSource,
  checked: Checked[],
  at: (i: number) => string,
): Promise<void> {
  const accepted = checked.flatMap((c, i) =>
    c.ok && c.parsed.identifiers.length > 0 ? [{ i, parsed: c.parsed }] : [],
  );
  if (accepted.length === 0) return;
  const known = await observationsByIdentifier(
    db,
    source.organizationId,
    accepted.flatMap(({ parsed }) => parsed.identifiers),
    accepted.length * 10,
  );
  const owner = new Map<string, { measurement: string; observationId: number | null }>();
  const keyOf = (i: { system: string | null; value: string }) => `${i.system ?? ''}\u0000${i.value}`;
  for (const k of known)
    owner.set(keyOf(k), { measurement: measurementOf(k.source, k.created_at), observationId: k.observation_id });
  for (const { i, parsed } of accepted) {
    const measurement = measurementOf(parsed.reading.deviceIdentifier, parsed.reading.measuredAt);
    const taken = parsed.identifiers.find((id) => {
      const o = owner.get(keyOf(id));
      return o !== undefined && o.measurement !== measurement;
    });
    if (taken) {
      const observationId = owner.get(keyOf(taken))?.observationId ?? 0;
      checked[i] = {
        ok: false,
        error: new ReadingRejected(
          FhirErrors.identifierTaken(`${at(i)}identifier`, observationId),
          parsed.reading.deviceIdentifier,
          409,
        ),
      };
      continue;
    }
    for (const id of parsed.identifiers)
      if (!owner.has(keyOf(id))) owner.set(keyOf(id), { measurement, observationId: null });
  }
}

/** Keeps the sender's identifiers with the Observation each entry became (stored, a retry, or a panel's pulse). */
export async function keepIdentifiers(
  tx: Queryable,
  source: AuthenticatedSource,
  checked: Checked[],
  outcomes: (EntryOutcome | null)[],
): Promise<void> {
  const items = checked.flatMap((c, i) => {
    if (!c.ok) return [];
    const o = outcomes[i];
    const target = o?.status === 'merged' ? o.into : o;
    const observationId = target && target.status !== 'unmatched' ? target.vitalId : null;
    return observationId ? c.parsed.identifiers.map((id) => ({ observationId, ...id })) : [];
  });
  const taken = await storeIdentifiers(tx, source.organizationId, items);
  // Checked before storing; only a request racing this one can have taken it since: refuse it
  // all (the transaction rolls back) rather than keep a reading its sender cannot find again.
  if (taken[0]) throw new ReadingRejected(FhirErrors.identifierTaken('identifier', taken[0].ownerId), null, 409);
}
