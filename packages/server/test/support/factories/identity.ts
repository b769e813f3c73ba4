import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, type Moment } from './common.ts';

/**
 * The user pool's own rows in states no sign-in makes on the spot: an old sign-in, an old message,
 * the settings row of an earlier version.
 */

/** The pool user's live sign-ins (their refresh tokens) made `ago` (an SQL interval) instead of now. */
export async function backdateSignIns(db: Queryable, poolUsername: string, ago: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.refresh_tokens')
    .set({ auth_time: sql`now() - ${ago}::interval` })
    .where('username', '=', poolUsername)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A message in the pool's outbox, queued at `at`. */
export async function buildOutboxMessage(
  db: Queryable,
  m: { kind: 'invitation' | 'reset-code'; recipient: string; subject?: string; body?: string; at: Moment },
): Promise<void> {
  await kysely(db)
    .insertInto('identity.outbox')
    .values({
      kind: m.kind,
      recipient: m.recipient,
      subject: m.subject ?? 's',
      body: m.body ?? 'b',
      created_at: momentSql(m.at),
    })
    .execute();
}

/** The pool's settings row as a version before sealing left it: the keys in clear (give the owner's pool). */
export async function unsealPoolSettings(
  db: Queryable,
  clear: { admin_secret_access_key: string; signing_private_jwk: unknown; data_key: Buffer },
): Promise<void> {
  await kysely(db)
    .updateTable('identity.settings')
    .set({
      admin_secret_access_key: clear.admin_secret_access_key,
      signing_private_jwk: JSON.stringify(clear.signing_private_jwk),
      data_key: clear.data_key,
      admin_secret_sealed: null,
      signing_private_sealed: null,
      data_key_sealed: null,
    })
    .execute();
}
