import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import * as settingsRepo from './repositories/settings.repository.ts';
import { sealWithMasterKey, unsealWithMasterKey } from './secrets.ts';
import { generateSigningKey } from './tokens.ts';

/**
 * First start creates the pool; concurrent first starts agree on whichever row got in first.
 * The install secrets are kept sealed with the master key (AES-256-GCM, bound to their purpose):
 * a dump of the database does not hold them. A database from before that is sealed in place.
 */
export async function loadOrCreateSettings(db: pg.Pool, masterKey: Buffer): Promise<settingsRepo.SettingsRow> {
  let stored = await settingsRepo.readSettings(db);
  if (!stored) {
    const signing = await generateSigningKey();
    await settingsRepo.insertSettingsIfMissing(db, {
      pool_id: `local_${randomId(9)}`,
      client_id: randomId(26).toLowerCase(),
      admin_access_key_id: `AKIA${randomId(16).toUpperCase()}`,
      signing_kid: signing.kid,
      signing_public_jwk: signing.publicJwk,
      ...sealSecrets(masterKey, {
        adminSecret: randomBytes(30).toString('base64'),
        signingPrivateJwk: signing.privateJwk,
        dataKey: randomBytes(32),
      }),
    });
    stored = await settingsRepo.readSettings(db);
    if (!stored) throw new Error('could not create the local user pool settings');
  }
  if (!stored.admin_secret_sealed || !stored.signing_private_sealed || !stored.data_key_sealed) {
    if (!stored.admin_secret_access_key || !stored.signing_private_jwk || !stored.data_key) {
      throw new Error('the local user pool settings lack their keys');
    }
    await settingsRepo.sealSettingsInPlace(
      db,
      sealSecrets(masterKey, {
        adminSecret: stored.admin_secret_access_key,
        signingPrivateJwk: stored.signing_private_jwk,
        dataKey: stored.data_key,
      }),
    );
    return loadOrCreateSettings(db, masterKey);
  }
  try {
    return {
      pool_id: stored.pool_id,
      client_id: stored.client_id,
      admin_access_key_id: stored.admin_access_key_id,
      signing_kid: stored.signing_kid,
      signing_public_jwk: stored.signing_public_jwk,
      admin_secret_access_key: unsealWithMasterKey(masterKey, SEALED.adminSecret, stored.admin_secret_sealed).toString('utf8'),
      signing_private_jwk: JSON.parse(
        unsealWithMasterKey(masterKey, SEALED.signingPrivateJwk, stored.signing_private_sealed).toString('utf8'),
      ) as settingsRepo.SettingsRow['signing_private_jwk'],
      data_key: unsealWithMasterKey(masterKey, SEALED.dataKey, stored.data_key_sealed),
    };
  } catch {
    throw new Error('the master key (PORTAL_MASTER_KEY or its key file) does not open the user pool keys: is it the one this database was started with?');
  }
}

const SEALED = {
  adminSecret: 'identity.settings.admin_secret',
  signingPrivateJwk: 'identity.settings.signing_private_jwk',
  dataKey: 'identity.settings.data_key',
};

function sealSecrets(
  masterKey: Buffer,
  s: { adminSecret: string; signingPrivateJwk: settingsRepo.SettingsRow['signing_private_jwk']; dataKey: Buffer },
): settingsRepo.SealedSecrets {
  return {
    admin_secret_sealed: sealWithMasterKey(masterKey, SEALED.adminSecret, Buffer.from(s.adminSecret, 'utf8')),
    signing_private_sealed: sealWithMasterKey(masterKey, SEALED.signingPrivateJwk, Buffer.from(JSON.stringify(s.signingPrivateJwk), 'utf8')),
    data_key_sealed: sealWithMasterKey(masterKey, SEALED.dataKey, s.dataKey),
  };
}

/** Letters and digits only: pool ids and client ids must survive any URL or header. */
function randomId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const v = bytes[i]!;
    if (v < 248) out += alphabet[v % 62];
  }
  return out.padEnd(length, 'x');
}
