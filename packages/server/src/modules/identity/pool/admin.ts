import { randomUUID } from 'node:crypto';
import { isValidEmail, normalizeEmail } from '@rpm/contracts';
import { withTransaction, type Queryable } from '../../../db/pool.ts';
import { invitationMessage } from '../mailer.ts';
import { generateTemporaryPassword, meetsPasswordPolicy } from '../password.ts';
import { CognitoError, Errors, type Body } from '../protocol.ts';
import * as users from '../repositories/users.repository.ts';
import { createVerifier } from '../srp.ts';
import { normalizeLogin, signedOut, type PoolContext } from './context.ts';
import { adminSetMfa } from './mfa.ts';
import { attributesOf, epoch, mfaSettingsOf, userTypeOf } from './presenters.ts';
import type { AdminCreateUserInput, ListUsersInput, MfaSettingsInput } from './schemas.ts';
import { revokeEverything } from './tokens.ts';

/**
 * Administration: what an administrator does to accounts. The typed functions serve both the
 * in-process directory (the portal's own calls) and the Admin* operations of the HTTP endpoint,
 * which add Cognito's shapes around them (the `...Operation` functions at the end).
 */

const TEMPORARY_PASSWORD_TTL_MS = 7 * 24 * 3600 * 1000;

/** The named user (username or address), locked when `db` is a transaction; else UserNotFound. */
export async function userNamed(ctx: PoolContext, login: string, db: Queryable = ctx.db): Promise<users.UserRow> {
  const user = await users.findUser(db, normalizeLogin(login), { forUpdate: db !== ctx.db });
  if (!user) throw Errors.userNotFound();
  return user;
}

export interface NewUser {
  /** The address (or, for RESEND, the user's name or address). */
  username: string;
  /** The address, when given apart from `username` (Cognito's email attribute). */
  email?: string;
  temporaryPassword?: string;
  /** RESEND: a new temporary password for an invited user; SUPPRESS: no invitation is sent. */
  messageAction?: 'RESEND' | 'SUPPRESS';
}

/** Creates an invited user, or (RESEND) gives one a new temporary password, with its invitation. */
export async function createUser(ctx: PoolContext, input: NewUser): Promise<users.UserRow> {
  const given = input.temporaryPassword;
  if (given !== undefined && !meetsPasswordPolicy(given)) throw Errors.invalidPassword();
  const temporaryPassword = given ?? generateTemporaryPassword();
  const expiresAt = new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS);

  // One transaction: the account (or its new temporary password) and its invitation together.
  const user = await withTransaction(ctx.db, async (tx) => {
    let row: users.UserRow | null;
    if (input.messageAction === 'RESEND') {
      row = await userNamed(ctx, input.username, tx);
      if (row.status !== 'FORCE_CHANGE_PASSWORD') {
        throw new CognitoError(
          'UnsupportedUserStateException',
          'Resend not possible. User is not in FORCE_CHANGE_PASSWORD state.',
        );
      }
      await users.setPassword(tx, row.username, {
        ...createVerifier(ctx.poolName, row.username, temporaryPassword),
        permanent: false,
        temporaryPasswordExpiresAt: expiresAt,
      });
    } else {
      const email = normalizeEmail(input.email ?? input.username.trim());
      if (!isValidEmail(email)) throw Errors.invalidParameter('Invalid email address format.');
      const id = randomUUID();
      row = await users.insertUser(tx, {
        username: id,
        email,
        ...createVerifier(ctx.poolName, id, temporaryPassword),
        temporaryPasswordExpiresAt: expiresAt,
      });
      if (!row) throw Errors.usernameExists();
    }
    if (input.messageAction !== 'SUPPRESS') {
      await ctx.mailer.send(invitationMessage(ctx.publicUrl, row.email, temporaryPassword), tx);
    }
    return row;
  });
  return (await users.findUser(ctx.db, user.username)) ?? user;
}

export async function setPassword(
  ctx: PoolContext,
  login: string,
  password: string,
  permanent: boolean,
): Promise<void> {
  const user = await userNamed(ctx, login);
  if (!meetsPasswordPolicy(password)) throw Errors.invalidPassword();
  await users.setPassword(ctx.db, user.username, {
    ...createVerifier(ctx.poolName, user.username, password),
    permanent,
    temporaryPasswordExpiresAt: new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS),
  });
}

export async function setEnabled(ctx: PoolContext, login: string, enabled: boolean): Promise<void> {
  const user = await userNamed(ctx, login);
  await users.setEnabled(ctx.db, user.username, enabled);
}

export async function signOutEverywhere(ctx: PoolContext, login: string): Promise<void> {
  const user = await userNamed(ctx, login);
  await revokeEverything(ctx.db, user.username);
  await signedOut(ctx, user, 'global_sign_out');
}

export async function setMfaPreference(
  ctx: PoolContext,
  login: string,
  settings: MfaSettingsInput | undefined,
): Promise<void> {
  await adminSetMfa(ctx, await userNamed(ctx, login), settings);
}

export interface UserCursor {
  createdAt: string;
  username: string;
}

/** A page of users after `after`, and the cursor of the next page when this one is full. */
export async function listUsers(
  ctx: PoolContext,
  page: { limit: number; after: UserCursor | null; filter: { attribute: 'email' | 'sub'; value: string } | null },
): Promise<{ users: users.UserRow[]; next: UserCursor | null }> {
  const rows = await users.listUsers(ctx.db, page.limit, page.after, page.filter);
  const last = rows.at(-1);
  return {
    users: rows,
    next: rows.length === page.limit && last ? { createdAt: last.cursor_time, username: last.username } : null,
  };
}

// ---- the Admin* operations: Cognito's shapes ---------------------------------------------------

export async function adminCreateUserOperation(ctx: PoolContext, input: AdminCreateUserInput): Promise<Body> {
  const email = input.UserAttributes?.filter((a) => a.Name === 'email').at(-1)?.Value;
  const user = await createUser(ctx, {
    username: input.Username,
    ...(email !== undefined ? { email } : {}),
    ...(input.TemporaryPassword !== undefined ? { temporaryPassword: input.TemporaryPassword } : {}),
    ...(input.MessageAction ? { messageAction: input.MessageAction } : {}),
  });
  return { User: { ...userTypeOf(user, false), MFAOptions: [] } };
}

export async function adminGetUserOperation(ctx: PoolContext, input: { Username: string }): Promise<Body> {
  const user = await userNamed(ctx, input.Username);
  return {
    Username: user.username,
    UserAttributes: attributesOf(user, true),
    UserCreateDate: epoch(user.created_at),
    UserLastModifiedDate: epoch(user.updated_at),
    Enabled: user.enabled,
    UserStatus: user.status,
    MFAOptions: [],
    ...mfaSettingsOf(user),
  };
}

export async function listUsersOperation(ctx: PoolContext, input: ListUsersInput): Promise<Body> {
  const limit = input.Limit ?? 60;
  const page = await listUsers(ctx, {
    limit,
    after: parsePaginationToken(input.PaginationToken),
    filter: parseFilter(input.Filter),
  });
  return {
    Users: page.users.map((u) => userTypeOf(u, true)),
    ...(page.next
      ? {
          PaginationToken: Buffer.from(JSON.stringify({ c: page.next.createdAt, u: page.next.username })).toString(
            'base64url',
          ),
        }
      : {}),
  };
}

function parsePaginationToken(token: string | undefined): UserCursor | null {
  if (!token) return null;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { c?: unknown; u?: unknown };
    if (typeof parsed.c !== 'string' || typeof parsed.u !== 'string') throw new Error('bad token');
    // Both go into SQL casts: anything else than what we issued is refused here, not there.
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(parsed.c) || Number.isNaN(Date.parse(parsed.c))) {
      throw new Error('bad token');
    }
    if (!users.isUsername(parsed.u)) throw new Error('bad token');
    return { createdAt: parsed.c, username: parsed.u };
  } catch {
    throw Errors.invalidParameter('Invalid pagination token');
  }
}

function parseFilter(text: string | undefined): { attribute: 'email' | 'sub'; value: string } | null {
  if (!text) return null;
  const m = /^\s*(email|sub)\s*=\s*"([^"]*)"\s*$/.exec(text);
  if (!m) throw Errors.invalidParameter('Only exact email or sub filters are supported');
  const attribute = m[1] as 'email' | 'sub';
  return { attribute, value: attribute === 'email' ? normalizeEmail(m[2]!) : m[2]! };
}
