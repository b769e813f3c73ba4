import { sql } from 'kysely';
import type { SmartJwks } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export interface ClientRow {
  id: string;
  name: string;
  organization_id: number;
  jwks_url: string | null;
  jwks: SmartJwks | null;
  scopes: string[];
  source_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = [
  'id',
  'name',
  'organization_id',
  'jwks_url',
  'jwks',
  'scopes',
  'source_id',
  'created_at',
  'revoked_at',
] as const;
// The service checked the JWKS's shape before storing it.
type Narrowed = { jwks: SmartJwks | null };

export async function insertClient(
  db: Queryable,
  c: {
    id: string;
    name: string;
    organizationId: number;
    jwksUrl: string | null;
    jwks: SmartJwks | null;
    scopes: string[];
    sourceId: string | null;
    createdBy: number;
  },
): Promise<ClientRow> {
  return kysely(db)
    .insertInto('smart_clients')
    .values({
      id: c.id,
      name: c.name,
      organization_id: c.organizationId,
      jwks_url: c.jwksUrl,
      jwks: c.jwks === null ? null : JSON.stringify(c.jwks),
      scopes: c.scopes,
      source_id: c.sourceId,
      created_by: c.createdBy,
    })
    .returning(COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirstOrThrow();
}

/** Live clients first, then by name. */
export async function listClients(db: Queryable): Promise<ClientRow[]> {
  return kysely(db)
    .selectFrom('smart_clients')
    .select(COLUMNS)
    .$narrowType<Narrowed>()
    .orderBy(sql`revoked_at IS NOT NULL, lower(name), created_at`)
    .execute();
}

export async function findClient(db: Queryable, id: string): Promise<ClientRow | null> {
  return (
    (await kysely(db)
      .selectFrom('smart_clients')
      .select(COLUMNS)
      .$narrowType<Narrowed>()
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Revokes once (the first time stays). Its tokens stop working at once (a token is valid only
 * while its client is not revoked) but stay until they expire, so that a refused call still
 * names the client in its record. Null when the client is unknown.
 */
export async function revokeClient(db: Queryable, id: string): Promise<ClientRow | null> {
  const row = await kysely(db)
    .updateTable('smart_clients')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .returning(COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Records an assertion id; false when the client used it before (the primary key says so, also
 * for two requests racing with one assertion).
 */
export async function useAssertionId(db: Queryable, clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
  const row = await kysely(db)
    .insertInto('smart_assertion_ids')
    .values({ client_id: clientId, jti, expires_at: expiresAt })
    .onConflict((oc) => oc.doNothing())
    .returning('jti')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Drops assertion ids and tokens past their expiry: an expired assertion is refused by its `exp`
 * anyway, and an expired token by its own. Run at each token request, so the tables stay small.
 */
export async function pruneExpired(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('smart_assertion_ids')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await kysely(db)
    .deleteFrom('smart_access_tokens')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}

export async function insertToken(
  db: Queryable,
  t: { hash: Buffer; clientId: string; organizationId: number; scopes: string[]; expiresAt: Date },
): Promise<void> {
  await kysely(db)
    .insertInto('smart_access_tokens')
    .values({
      token_hash: t.hash,
      client_id: t.clientId,
      organization_id: t.organizationId,
      scopes: t.scopes,
      expires_at: t.expiresAt,
    })
    .execute();
}

export interface TokenRow {
  client_id: string;
  client_name: string;
  organization_id: number;
  scopes: string[];
  /** Whether it is still valid now, by the database's clock (the one that wrote its expiry). */
  live: boolean;
  revoked: boolean;
  source_id: string | null;
}

/** The token with this hash and its client, whether or not it is still valid. */
export async function findToken(db: Queryable, hash: Buffer): Promise<TokenRow | null> {
  return (
    (await kysely(db)
      .selectFrom('smart_access_tokens as t')
      .innerJoin('smart_clients as c', 'c.id', 't.client_id')
      .select([
        't.client_id',
        'c.name as client_name',
        't.organization_id',
        't.scopes',
        'c.source_id',
        sql<boolean>`t.expires_at > now()`.as('live'),
        sql<boolean>`c.revoked_at IS NOT NULL`.as('revoked'),
      ])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst()) ?? null
  );
}
