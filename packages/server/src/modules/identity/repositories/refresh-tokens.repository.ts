import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/** identity.refresh_tokens: one row per sign-in; its id is the origin_jti of the sign-in's tokens. */

export interface RefreshRow {
  id: string;
  username: string;
  client_id: string;
  auth_time: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const now = sql<Date>`now()`;

export async function insertRefreshToken(
  db: Queryable,
  r: { id: string; hash: Buffer; username: string; clientId: string; authTime: Date; ttlSeconds: number },
): Promise<void> {
  await kysely(db)
    .insertInto('identity.refresh_tokens')
    .values({
      id: r.id,
      token_hash: r.hash,
      username: r.username,
      client_id: r.clientId,
      auth_time: r.authTime,
      expires_at: sql<Date>`now() + make_interval(secs => ${r.ttlSeconds})`,
    })
    .execute();
}

export async function findRefreshToken(db: Queryable, hash: Buffer): Promise<RefreshRow | null> {
  const row = await kysely(db)
    .selectFrom('identity.refresh_tokens')
    .select(['id', 'username', 'client_id', 'auth_time', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  return row ?? null;
}

export async function revokeRefreshToken(db: Queryable, hash: Buffer, clientId: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.refresh_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', hash)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeAllSignIns(db: Queryable, username: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.refresh_tokens')
    .set({ revoked_at: now })
    .where('username', '=', username)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every sign-in of a user but one (a password change keeps the sign-in that made it). */
export async function revokeOtherSignIns(db: Queryable, username: string, keepId: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.refresh_tokens')
    .set({ revoked_at: now })
    .where('username', '=', username)
    .where('id', '<>', keepId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes one sign-in by its id (the origin_jti of its tokens): the portal's logout. */
export async function revokeSignIn(db: Queryable, id: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.refresh_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** An access token lives only as long as the sign-in (refresh token) it came from. */
export async function isOriginLive(db: Queryable, originJti: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('identity.refresh_tokens')
    .select('revoked_at')
    .where('id', '=', originJti)
    .executeTakeFirst();
  return row !== undefined && row.revoked_at === null;
}

export async function deleteExpiredRefreshTokens(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.refresh_tokens')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
