// What a sender's identifiers of Observations already name, and keeping them.
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { Token } from './fhir.repository.ts';
/** What an identifier already names in an organization: the observation and the measurement it is. */
export interface IdentifiedObservation {
  observation_id: number;
  system: string | null;
  value: string;
  source: string;
  created_at: Date;
}

/**
 * The observations of an organization that any of the tokens names (token semantics: a bare
 * value in any system, `|value` only without one), at most `limit` of them.
 */
export async function observationsByIdentifier(
  db: Queryable,
  organizationId: number,
  tokens: readonly Token[],
  limit: number,
): Promise<IdentifiedObservation[]> {
  if (tokens.length === 0) return [];
  const rows = await kysely(db)
    .selectFrom('observation_identifiers as i')
    .innerJoin('observations as v', 'v.id', 'i.observation_id')
    .select(['i.observation_id', 'i.system', 'i.value', 'v.source', 'v.created_at'])
    .where('i.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or(
        tokens.map((t) =>
          eb.and([
            eb('i.value', '=', t.value),
            ...(t.system === undefined
              ? []
              : [t.system === null ? eb('i.system', 'is', null) : eb('i.system', '=', t.system)]),
          ]),
        ),
      ),
    )
    .orderBy('i.observation_id')
    .limit(limit * 10)
    .execute();
  const seen = new Set<number>();
  return rows
    .map((r) => ({ ...r, observation_id: Number(r.observation_id) }))
    .filter((r) => !seen.has(r.observation_id) && !!seen.add(r.observation_id))
    .slice(0, limit);
}

/**
 * Keeps each observation's identifiers; one already kept for the same observation (a retry)
 * stays as it is. Answers the items an identifier of which names another observation: a
 * concurrent request kept it first (the unique index waits for it), so this one must not stand.
 */
export async function storeIdentifiers(
  tx: Queryable,
  organizationId: number,
  items: readonly { observationId: number; system: string | null; value: string }[],
): Promise<{ observationId: number; system: string | null; value: string; ownerId: number }[]> {
  if (items.length === 0) return [];
  await kysely(tx)
    .insertInto('observation_identifiers')
    .values(
      items.map((i) => ({
        observation_id: i.observationId,
        organization_id: organizationId,
        system: i.system,
        value: i.value,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  const owners = await kysely(tx)
    .selectFrom('observation_identifiers')
    .select(['observation_id', 'system', 'value'])
    .where('organization_id', '=', organizationId)
    .where(
      'value',
      'in',
      items.map((i) => i.value),
    )
    .execute();
  return items.flatMap((i) => {
    const owner = owners.find((o) => o.system === i.system && o.value === i.value);
    return owner && Number(owner.observation_id) !== i.observationId
      ? [{ ...i, ownerId: Number(owner.observation_id) }]
      : [];
  });
}
