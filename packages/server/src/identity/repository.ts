import type { JWK } from 'jose';
import type { Queryable } from '../db/pool.ts';

/**
 * Every SQL statement of the local user pool. All parameterized; nothing built from input.
 * Each function takes the pool or a transaction's client, so that a multi-step account change
 * commits or rolls back as one. Addresses arrive normalised (normalizeEmail) by the caller.
 */

export type Db = Queryable;

export type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED' | 'RESET_REQUIRED';

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

export interface UserRow {
  username: string;
  email: string;
  email_verified: boolean;
  status: UserStatus;
  enabled: boolean;
  srp_salt: string;
  srp_verifier: string;
  temporary_password_expires_at: Date | null;
  totp_secret: Buffer | null;
  totp_pending_secret: Buffer | null;
  totp_last_step: number | null;
  mfa_enabled: boolean;
  mfa_preferred: boolean;
  tokens_valid_after: Date | null;
  password_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = `username::text AS username, email, email_verified, status, enabled, srp_salt, srp_verifier,
  temporary_password_expires_at, totp_secret, totp_pending_secret, totp_last_step::integer AS totp_last_step,
  mfa_enabled, mfa_preferred,
  CASE WHEN tokens_valid_after = '-infinity' THEN NULL ELSE tokens_valid_after END AS tokens_valid_after,
  password_changed_at, created_at, updated_at`;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---- settings -------------------------------------------------------------------------------

export async function readSettings(db: Db): Promise<StoredSettingsRow | null> {
  const { rows } = await db.query<StoredSettingsRow>(
    `SELECT pool_id, client_id, admin_access_key_id, signing_kid, signing_public_jwk,
            admin_secret_sealed, signing_private_sealed, data_key_sealed,
            admin_secret_access_key, signing_private_jwk, data_key
       FROM identity.settings WHERE singleton`,
  );
  return rows[0] ?? null;
}

/** First start: only the first of several instances starting at once gets its row in. */
export async function insertSettingsIfMissing(
  db: Db,
  s: Pick<SettingsRow, 'pool_id' | 'client_id' | 'admin_access_key_id' | 'signing_kid' | 'signing_public_jwk'> & SealedSecrets,
): Promise<void> {
  await db.query(
    `INSERT INTO identity.settings (singleton, pool_id, client_id, admin_access_key_id, signing_kid, signing_public_jwk,
       admin_secret_sealed, signing_private_sealed, data_key_sealed)
     VALUES (true, $1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (singleton) DO NOTHING`,
    [
      s.pool_id,
      s.client_id,
      s.admin_access_key_id,
      s.signing_kid,
      JSON.stringify(s.signing_public_jwk),
      s.admin_secret_sealed,
      s.signing_private_sealed,
      s.data_key_sealed,
    ],
  );
}

/**
 * Upgrade: seals the clear secrets in place and clears them, once (of several instances starting
 * at once, the first one does it; the others then read its row).
 */
export async function sealSettingsInPlace(db: Db, sealed: SealedSecrets): Promise<void> {
  await db.query(
    `UPDATE identity.settings
        SET admin_secret_sealed = $1, signing_private_sealed = $2, data_key_sealed = $3,
            admin_secret_access_key = NULL, signing_private_jwk = NULL, data_key = NULL
      WHERE singleton AND (admin_secret_sealed IS NULL OR signing_private_sealed IS NULL OR data_key_sealed IS NULL)`,
    [sealed.admin_secret_sealed, sealed.signing_private_sealed, sealed.data_key_sealed],
  );
}

// ---- users ----------------------------------------------------------------------------------

/**
 * Admin and sign-in calls name a user by username (UUID) or by email, as Cognito allows; an
 * email must come normalised. `forUpdate` locks the row for the rest of the transaction.
 */
export async function findUser(db: Db, login: string, { forUpdate = false } = {}): Promise<UserRow | null> {
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const { rows } = UUID_PATTERN.test(login)
    ? await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM identity.users WHERE username = $1::uuid${lock}`, [login])
    : await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM identity.users WHERE email_key = $1${lock}`, [login]);
  return rows[0] ?? null;
}

export function isUsername(login: string): boolean {
  return UUID_PATTERN.test(login);
}

export async function insertUser(
  db: Db,
  u: { username: string; email: string; salt: string; verifier: string; temporaryPasswordExpiresAt: Date },
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO identity.users (username, email, email_key, status, srp_salt, srp_verifier, temporary_password_expires_at)
     VALUES ($1, $2, $2, 'FORCE_CHANGE_PASSWORD', $3, $4, $5)
     ON CONFLICT DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [u.username, u.email, u.salt, u.verifier, u.temporaryPasswordExpiresAt],
  );
  return rows[0] ?? null;
}

export async function setPassword(
  db: Db,
  username: string,
  p: { salt: string; verifier: string; permanent: boolean; temporaryPasswordExpiresAt?: Date },
): Promise<void> {
  await db.query(
    `UPDATE identity.users
        SET srp_salt = $2, srp_verifier = $3,
            status = CASE WHEN $4 THEN 'CONFIRMED' ELSE 'FORCE_CHANGE_PASSWORD' END,
            temporary_password_expires_at = CASE WHEN $4 THEN NULL ELSE $5::timestamptz END,
            password_changed_at = CASE WHEN $4 THEN now() ELSE password_changed_at END,
            updated_at = now()
      WHERE username = $1`,
    [username, p.salt, p.verifier, p.permanent, p.temporaryPasswordExpiresAt ?? null],
  );
}

export async function setEnabled(db: Db, username: string, enabled: boolean): Promise<void> {
  await db.query('UPDATE identity.users SET enabled = $2, updated_at = now() WHERE username = $1', [username, enabled]);
}

export async function setPendingTotp(db: Db, username: string, sealed: Buffer): Promise<void> {
  await db.query('UPDATE identity.users SET totp_pending_secret = $2, updated_at = now() WHERE username = $1', [
    username,
    sealed,
  ]);
}

/** The verified pending secret becomes the user's secret; its code may not be used again. */
export async function promotePendingTotp(db: Db, username: string, step: number): Promise<void> {
  await db.query(
    `UPDATE identity.users
        SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2, updated_at = now()
      WHERE username = $1 AND totp_pending_secret IS NOT NULL`,
    [username, step],
  );
}

/** Claims a time step atomically, so one code cannot be used twice even by two instances at once. */
export async function claimTotpStep(db: Db, username: string, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE identity.users SET totp_last_step = $2
      WHERE username = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [username, step],
  );
  return rowCount === 1;
}

/** Lost phone: the TOTP secret is forgotten, so MFA must be set up again. */
export async function clearMfa(db: Db, username: string): Promise<void> {
  await db.query(
    `UPDATE identity.users
        SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL,
            mfa_enabled = false, mfa_preferred = false, updated_at = now()
      WHERE username = $1`,
    [username],
  );
}

export async function setMfa(db: Db, username: string, enabled: boolean, preferred: boolean): Promise<void> {
  await db.query(
    'UPDATE identity.users SET mfa_enabled = $2, mfa_preferred = $3, updated_at = now() WHERE username = $1',
    [username, enabled, preferred],
  );
}

/** Global sign-out: every refresh token dies and every access token issued so far is refused. */
export async function revokeEverything(db: Db, username: string): Promise<void> {
  await db.query('UPDATE identity.users SET tokens_valid_after = now() WHERE username = $1', [username]);
  await db.query(
    'UPDATE identity.refresh_tokens SET revoked_at = now() WHERE username = $1 AND revoked_at IS NULL',
    [username],
  );
}

/** Revokes every sign-in of a user but one (a password change keeps the sign-in that made it). */
export async function revokeOtherSignIns(db: Db, username: string, keepId: string): Promise<void> {
  await db.query(
    `UPDATE identity.refresh_tokens SET revoked_at = now()
      WHERE username = $1 AND id <> $2::uuid AND revoked_at IS NULL`,
    [username, keepId],
  );
}

/** Revokes one sign-in by its id (the origin_jti of its tokens): the portal's logout. */
export async function revokeSignIn(db: Db, id: string): Promise<void> {
  await db.query(`UPDATE identity.refresh_tokens SET revoked_at = now() WHERE id = $1::uuid AND revoked_at IS NULL`, [id]);
}

export async function listUsers(
  db: Db,
  limit: number,
  after: { createdAt: string; username: string } | null,
  filter: { attribute: 'email' | 'sub'; value: string } | null,
): Promise<Array<UserRow & { cursor_time: string }>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (after) {
    params.push(after.createdAt, after.username);
    where.push(`(created_at, username) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  if (filter?.attribute === 'email') {
    params.push(filter.value);
    where.push(`email_key = $${params.length}`);
  } else if (filter?.attribute === 'sub') {
    params.push(filter.value);
    where.push(`username::text = $${params.length}`);
  }
  params.push(limit);
  // The cursor keeps microseconds: the keyset of the pagination token must be exact.
  const { rows } = await db.query<UserRow & { cursor_time: string }>(
    `SELECT ${USER_COLUMNS},
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time
       FROM identity.users
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at, username LIMIT $${params.length}`,
    params,
  );
  return rows;
}

// ---- challenge sessions ---------------------------------------------------------------------

export interface SessionRow {
  username: string | null;
  challenge: string;
  state: Record<string, string>;
  failed_attempts: number;
}

export async function insertSession(
  db: Db,
  s: { hash: Buffer; username: string | null; challenge: string; state: Record<string, string>; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO identity.challenge_sessions (session_hash, username, challenge, state, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [s.hash, s.username, s.challenge, JSON.stringify(s.state), s.ttlSeconds],
  );
}

export async function findSession(db: Db, hash: Buffer): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT username::text AS username, challenge, state, failed_attempts
       FROM identity.challenge_sessions WHERE session_hash = $1 AND expires_at > now()`,
    [hash],
  );
  return rows[0] ?? null;
}

/** Single use: whoever deletes the row owns the challenge; a replay finds nothing. */
export async function consumeSession(db: Db, hash: Buffer): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow & { live: boolean }>(
    `DELETE FROM identity.challenge_sessions WHERE session_hash = $1
     RETURNING username::text AS username, challenge, state, failed_attempts, expires_at > now() AS live`,
    [hash],
  );
  const row = rows[0];
  return row && row.live ? row : null;
}

/** Counts a wrong code against the session; returns the new count. */
export async function countSessionFailure(db: Db, hash: Buffer): Promise<number> {
  const { rows } = await db.query<{ failed_attempts: number }>(
    `UPDATE identity.challenge_sessions SET failed_attempts = failed_attempts + 1
      WHERE session_hash = $1 RETURNING failed_attempts`,
    [hash],
  );
  return rows[0]?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteSession(db: Db, hash: Buffer): Promise<void> {
  await db.query('DELETE FROM identity.challenge_sessions WHERE session_hash = $1', [hash]);
}

// ---- refresh tokens -------------------------------------------------------------------------

export interface RefreshRow {
  id: string;
  username: string;
  client_id: string;
  auth_time: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export async function insertRefreshToken(
  db: Db,
  r: { id: string; hash: Buffer; username: string; clientId: string; authTime: Date; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO identity.refresh_tokens (id, token_hash, username, client_id, auth_time, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [r.id, r.hash, r.username, r.clientId, r.authTime, r.ttlSeconds],
  );
}

export async function findRefreshToken(db: Db, hash: Buffer): Promise<RefreshRow | null> {
  const { rows } = await db.query<RefreshRow>(
    `SELECT id::text AS id, username::text AS username, client_id, auth_time, expires_at, revoked_at
       FROM identity.refresh_tokens WHERE token_hash = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

export async function revokeRefreshToken(db: Db, hash: Buffer, clientId: string): Promise<void> {
  await db.query(
    `UPDATE identity.refresh_tokens SET revoked_at = now()
      WHERE token_hash = $1 AND client_id = $2 AND revoked_at IS NULL`,
    [hash, clientId],
  );
}

/** An access token lives only as long as the sign-in (refresh token) it came from. */
export async function isOriginLive(db: Db, originJti: string): Promise<boolean> {
  const { rows } = await db.query<{ live: boolean }>(
    `SELECT revoked_at IS NULL AS live FROM identity.refresh_tokens WHERE id = $1::uuid`,
    [originJti],
  );
  return rows[0]?.live === true;
}

export async function tokensValidAfter(db: Db, username: string): Promise<Date | null> {
  const { rows } = await db.query<{ t: Date | null }>(
    `SELECT CASE WHEN tokens_valid_after = '-infinity' THEN NULL ELSE tokens_valid_after END AS t
       FROM identity.users WHERE username = $1::uuid`,
    [username],
  );
  return rows[0]?.t ?? null;
}

// ---- reset codes ----------------------------------------------------------------------------

export async function storeResetCode(db: Db, username: string, hash: Buffer, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO identity.reset_codes (username, code_hash, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (username) DO UPDATE
       SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, failed_attempts = 0, created_at = now()`,
    [username, hash, ttlSeconds],
  );
}

export async function findResetCode(
  db: Db,
  username: string,
): Promise<{ code_hash: Buffer; failed_attempts: number; live: boolean } | null> {
  const { rows } = await db.query<{ code_hash: Buffer; failed_attempts: number; live: boolean }>(
    `SELECT code_hash, failed_attempts, expires_at > now() AS live FROM identity.reset_codes WHERE username = $1`,
    [username],
  );
  return rows[0] ?? null;
}

export async function countResetCodeFailure(db: Db, username: string): Promise<number> {
  const { rows } = await db.query<{ failed_attempts: number }>(
    `UPDATE identity.reset_codes SET failed_attempts = failed_attempts + 1 WHERE username = $1
     RETURNING failed_attempts`,
    [username],
  );
  return rows[0]?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Single use: the code is taken only if it is still the same live code. */
export async function consumeResetCode(db: Db, username: string, hash: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM identity.reset_codes WHERE username = $1 AND code_hash = $2 AND expires_at > now()',
    [username, hash],
  );
  return rowCount === 1;
}

export async function deleteResetCode(db: Db, username: string): Promise<void> {
  await db.query('DELETE FROM identity.reset_codes WHERE username = $1', [username]);
}

// ---- reset decoys ----------------------------------------------------------------------------

/** A reset "asked for" an address without a usable account: live like a code, never matching. */
export async function storeResetDecoy(db: Db, accountKey: string, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO identity.reset_decoys (account_key, expires_at)
     VALUES ($1, now() + make_interval(secs => $2))
     ON CONFLICT (account_key) DO UPDATE SET expires_at = EXCLUDED.expires_at, failed_attempts = 0, created_at = now()`,
    [accountKey, ttlSeconds],
  );
}

export async function findResetDecoy(db: Db, accountKey: string): Promise<{ failed_attempts: number; live: boolean } | null> {
  const { rows } = await db.query<{ failed_attempts: number; live: boolean }>(
    'SELECT failed_attempts, expires_at > now() AS live FROM identity.reset_decoys WHERE account_key = $1',
    [accountKey],
  );
  return rows[0] ?? null;
}

export async function countResetDecoyFailure(db: Db, accountKey: string): Promise<number> {
  const { rows } = await db.query<{ failed_attempts: number }>(
    `UPDATE identity.reset_decoys SET failed_attempts = failed_attempts + 1 WHERE account_key = $1
     RETURNING failed_attempts`,
    [accountKey],
  );
  return rows[0]?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteResetDecoy(db: Db, accountKey: string): Promise<void> {
  await db.query('DELETE FROM identity.reset_decoys WHERE account_key = $1', [accountKey]);
}

// ---- throttling -----------------------------------------------------------------------------

export async function recordAttempt(db: Db, bucket: string): Promise<void> {
  await db.query('INSERT INTO identity.attempts (bucket) VALUES ($1)', [bucket]);
}

export async function countAttempts(db: Db, bucket: string, windowSeconds: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM identity.attempts
      WHERE bucket = $1 AND at > now() - make_interval(secs => $2)`,
    [bucket, windowSeconds],
  );
  return rows[0]?.n ?? 0;
}

/** Failures in the window, and how long ago (ms, by the database clock) the latest one was. */
export async function failureState(
  db: Db,
  bucket: string,
  windowSeconds: number,
): Promise<{ count: number; sinceLastMs: number }> {
  const { rows } = await db.query<{ n: number; since_ms: number | null }>(
    `SELECT count(*)::integer AS n,
            (extract(epoch FROM now() - max(at)) * 1000)::float8 AS since_ms
       FROM identity.attempts
      WHERE bucket = $1 AND at > now() - make_interval(secs => $2)`,
    [bucket, windowSeconds],
  );
  return { count: rows[0]?.n ?? 0, sinceLastMs: rows[0]?.since_ms ?? Number.POSITIVE_INFINITY };
}

export async function clearAttempts(db: Db, bucket: string): Promise<void> {
  await db.query('DELETE FROM identity.attempts WHERE bucket = $1', [bucket]);
}

/** Housekeeping: nothing older than a day is ever counted; messages live a week at most. */
export async function pruneExpired(db: Db, outboxRetentionDays: number): Promise<void> {
  await db.query(`DELETE FROM identity.attempts WHERE at < now() - interval '1 day'`);
  await db.query('DELETE FROM identity.challenge_sessions WHERE expires_at < now()');
  await db.query('DELETE FROM identity.reset_codes WHERE expires_at < now()');
  await db.query('DELETE FROM identity.reset_decoys WHERE expires_at < now()');
  await db.query(
    `DELETE FROM identity.refresh_tokens WHERE expires_at < now() - interval '1 day'`,
  );
  await db.query('DELETE FROM identity.outbox WHERE created_at < now() - make_interval(days => $1)', [outboxRetentionDays]);
}

// ---- outbox ---------------------------------------------------------------------------------

export async function insertOutbox(
  db: Db,
  m: { kind: 'invitation' | 'reset-code'; recipient: string; subject: string; body: string },
): Promise<void> {
  await db.query('INSERT INTO identity.outbox (kind, recipient, subject, body) VALUES ($1, $2, $3, $4)', [
    m.kind,
    m.recipient,
    m.subject,
    m.body,
  ]);
}

export async function latestOutbox(
  db: Db,
  recipient: string,
): Promise<{ kind: string; recipient: string; subject: string; body: string; created_at: Date } | null> {
  const { rows } = await db.query<{ kind: string; recipient: string; subject: string; body: string; created_at: Date }>(
    `SELECT kind, recipient, subject, body, created_at FROM identity.outbox
      WHERE recipient = $1 ORDER BY id DESC LIMIT 1`,
    [recipient],
  );
  return rows[0] ?? null;
}

export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: Date;
}

/** Messages an operator still has to deliver, oldest first. */
export async function undeliveredOutbox(db: Db): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `SELECT id, kind, recipient, subject, body, created_at FROM identity.outbox
      WHERE delivered_at IS NULL ORDER BY id`,
  );
  return rows;
}

export async function markOutboxDelivered(db: Db, ids: number[]): Promise<void> {
  await db.query('UPDATE identity.outbox SET delivered_at = now() WHERE id = ANY($1::bigint[])', [ids]);
}
