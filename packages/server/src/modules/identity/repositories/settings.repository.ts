import type { JWK } from 'jose';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/** identity.settings: the one row holding the local pool's ids and sealed install secrets. */

export interface SettingsRow {
  pool_id: string;
  client_id: string;
  admin_access_key_id: string;
  admin_secret_access_key: string;
  signing_kid: string;
  signing_private_jwk: JWK;
  signing_public_jwk: JWK;
  data_key: Buffer;
}

/**
 * The settings row as stored: the three install secrets sealed with the master key (migration
 * 0742); a database from before that still has them in the clear columns until the next start.
 */
export interface StoredSettingsRow {
  pool_id: string;
  client_id: string;
  admin_access_key_id: string;
  signing_kid: string;
  signing_public_jwk: JWK;
  admin_secret_sealed: Buffer | null;
  signing_private_sealed: Buffer | null;
  data_key_sealed: Buffer | null;
  admin_secret_access_key: string | null;
  signing_private_jwk: JWK | null;
  data_key: Buffer | null;
}

export interface SealedSecrets {
  admin_secret_sealed: Buffer;
  signing_private_sealed: Buffer;
  data_key_sealed: Buffer;
}

export async function readSettings(db: Queryable): Promise<StoredSettingsRow | null> {
  const row = await kysely(db)
    .selectFrom('identity.settings')
    .select([
      'pool_id',
      'client_id',
      'admin_access_key_id',
      'signing_kid',
      'signing_public_jwk',
      'admin_secret_sealed',
      'signing_private_sealed',
      'data_key_sealed',
      'admin_secret_access_key',
      'signing_private_jwk',
      'data_key',
    ])
    .where('singleton', '=', true)
    // The two JSON columns hold keys this pool wrote itself (jose's export).
    .$narrowType<{ signing_public_jwk: JWK; signing_private_jwk: JWK | null }>()
    .executeTakeFirst();
  return row ?? null;
}

/** First start: only the first of several instances starting at once gets its row in. */
export async function insertSettingsIfMissing(
  db: Queryable,
  s: Pick<SettingsRow, 'pool_id' | 'client_id' | 'admin_access_key_id' | 'signing_kid' | 'signing_public_jwk'> &
    SealedSecrets,
): Promise<void> {
  await kysely(db)
    .insertInto('identity.settings')
    .values({
      singleton: true,
      pool_id: s.pool_id,
      client_id: s.client_id,
      admin_access_key_id: s.admin_access_key_id,
      signing_kid: s.signing_kid,
      signing_public_jwk: JSON.stringify(s.signing_public_jwk),
      admin_secret_sealed: s.admin_secret_sealed,
      signing_private_sealed: s.signing_private_sealed,
      data_key_sealed: s.data_key_sealed,
    })
    .onConflict((oc) => oc.column('singleton').doNothing())
    .execute();
}

/**
 * Upgrade: seals the clear secrets in place and clears them, once (of several instances starting
 * at once, the first one does it; the others then read its row).
 */
export async function sealSettingsInPlace(db: Queryable, sealed: SealedSecrets): Promise<void> {
  await kysely(db)
    .updateTable('identity.settings')
    .set({ ...sealed, admin_secret_access_key: null, signing_private_jwk: null, data_key: null })
    .where('singleton', '=', true)
    .where((eb) =>
      eb.or([
        eb('admin_secret_sealed', 'is', null),
        eb('signing_private_sealed', 'is', null),
        eb('data_key_sealed', 'is', null),
      ]),
    )
    .execute();
}
