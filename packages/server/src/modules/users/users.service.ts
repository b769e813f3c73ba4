import { AdminErrors, normalizeEmail, type AdminUser, type CreateUserBody, type UserStatus } from '@rpm/contracts';
import { withTransaction } from '../../db/pool.ts';
import type { DirectoryUser } from '../../identity/directory.ts';
import { HttpError, badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { organizationExists } from '../organizations/organizations.repository.ts';
import { roleExists } from '../roles/roles.repository.ts';
import { endAllSessionsOf } from '../sessions/sessions.service.ts';
import {
  emailTaken,
  findUser,
  insertUser,
  listUsers,
  lockUser,
  setUserMfaEnabled,
  setUserStatus,
  type UserRow,
} from './users.repository.ts';

type Deps = Pick<ModuleDeps, 'db' | 'identity'>;

const blankToNull = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

function present(row: UserRow, cognitoStatus: string | null): AdminUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    first_name: row.first_name,
    last_name: row.last_name,
    organization_id: row.organization_id,
    cognito_status: cognitoStatus,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    password_changed_at: row.password_changed_at ? row.password_changed_at.toISOString() : null,
    mfa_enabled: row.mfa_enabled,
  };
}

/**
 * A user-pool refusal (Cognito-style `...Exception` with a message written for operators) is
 * passed on as a 409 with that message; anything else stays an internal error.
 */
function poolError(err: unknown): HttpError | null {
  const e = err as { name?: unknown; message?: unknown; __type?: unknown };
  const name = typeof e?.name === 'string' ? e.name : typeof e?.__type === 'string' ? e.__type : '';
  if (!/Exception$/.test(name) || typeof e.message !== 'string') return null;
  return conflict(`${AdminErrors.userPoolFailed}: ${e.message}`);
}

const poolErrorName = (err: unknown): string => {
  const name = (err as { name?: unknown })?.name;
  return typeof name === 'string' ? name : 'Error';
};

async function cognitoStatusOf(deps: Deps, username: string | null): Promise<string | null> {
  if (!username) return null;
  try {
    return (await deps.identity.directory.getUser(username))?.status ?? null;
  } catch {
    return null; // the row is still worth showing; the status column just stays empty
  }
}

/** The user list, joined with the pool's status by username with ONE pool call. */
export async function getUsers(deps: Deps, ctx: SignedInContext): Promise<AdminUser[]> {
  const rows = await listUsers(deps.db);
  let poolByUsername = new Map<string, DirectoryUser>();
  let poolOk = true;
  try {
    poolByUsername = new Map((await deps.identity.directory.listUsers()).map((u) => [u.username, u]));
  } catch {
    poolOk = false;
  }
  await audit(deps.db, ctx, {
    action: 'user.list',
    outcome: 'success',
    resourceType: 'user',
    details: { count: rows.length, ...(poolOk ? {} : { pool_status: 'unavailable' }) },
  });
  return rows.map((r) => {
    const poolUser = r.cognito_username ? poolByUsername.get(r.cognito_username) : undefined;
    if (!poolUser) return present(r, null);
    // Passwords and MFA live in the pool: its word wins. Cognito's ListUsers does not report TOTP
    // MFA, so there the portal's flag stands (refreshed from the pool at every token exchange and
    // profile change); the local pool reports it.
    const presented = present(r, poolUser.status);
    return {
      ...presented,
      password_changed_at: poolUser.passwordChangedAt?.toISOString() ?? presented.password_changed_at,
      mfa_enabled: deps.identity.mode === 'local' ? poolUser.mfaEnabled : presented.mfa_enabled,
    };
  });
}

/**
 * Registration: the pool account first (it makes the temporary password and sends the invite),
 * then the portal row in one transaction with its audit record. A failed portal insert leaves no
 * portal row; the pool account it leaves behind is disabled so it cannot be used.
 */
export async function createUser(
  deps: Deps,
  ctx: SignedInContext,
  body: CreateUserBody,
): Promise<{ user: AdminUser; temp_password: string }> {
  const email = normalizeEmail(body.email);
  const fail = async (reason: string, err: unknown): Promise<never> => {
    await audit(deps.db, ctx, { action: 'user.create', outcome: 'failure', resourceType: 'user', reason });
    throw err;
  };
  if (await emailTaken(deps.db, email)) return fail('duplicate email', conflict(AdminErrors.emailTaken));
  if (!(await roleExists(deps.db, body.role))) return fail('unknown role', badRequest(AdminErrors.unknownRole));
  if (!(await organizationExists(deps.db, body.organization_id))) {
    return fail('unknown organization', badRequest(AdminErrors.unknownOrganization));
  }
  const firstName = blankToNull(body.first_name);
  const lastName = blankToNull(body.last_name);
  if (!firstName || !lastName) return fail('name required', badRequest());

  let created: Awaited<ReturnType<Deps['identity']['directory']['createUser']>>;
  try {
    created = await deps.identity.directory.createUser({ email });
  } catch (err) {
    const mapped = poolError(err);
    const exists = /UsernameExists/.test(poolErrorName(err));
    return fail(`user pool refused: ${poolErrorName(err)}`, exists ? conflict(AdminErrors.emailTakenInPool) : (mapped ?? err));
  }

  try {
    const row = await withTransaction(deps.db, async (tx) => {
      const inserted = await insertUser(tx, {
        email,
        firstName,
        middleName: blankToNull(body.middle_name),
        lastName,
        title: blankToNull(body.title),
        role: body.role,
        organizationId: body.organization_id,
        cognitoUsername: created.user.username,
        cognitoSub: created.user.sub ?? null,
      });
      await audit(tx, ctx, {
        action: 'user.create',
        outcome: 'success',
        resourceType: 'user',
        resourceId: inserted.id,
        targetUserId: inserted.id,
        details: { role: body.role, organization_id: body.organization_id },
      });
      return inserted;
    });
    return { user: present(row, created.user.status ?? null), temp_password: created.temporaryPassword };
  } catch (err) {
    await deps.identity.directory.disableUser(created.user.username).catch(() => {});
    const duplicate = (err as { code?: string }).code === '23505';
    return fail(
      `portal insert failed: ${duplicate ? 'duplicate' : 'error'}; pool account disabled`,
      duplicate ? conflict(AdminErrors.emailTaken) : err,
    );
  }
}

async function requireUser(deps: Deps, ctx: SignedInContext, id: number, action: string): Promise<UserRow> {
  const row = await findUser(deps.db, id);
  if (!row) {
    await audit(deps.db, ctx, { action, outcome: 'failure', resourceType: 'user', resourceId: id, reason: 'not found' });
    throw notFound();
  }
  return row;
}

export async function resendInvite(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const row = await requireUser(deps, ctx, id, 'user.resend_invite');
  const base = { action: 'user.resend_invite', resourceType: 'user', resourceId: id, targetUserId: id } as const;
  if (!row.cognito_username) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: 'no user pool account' });
    throw conflict(AdminErrors.userPoolFailed);
  }
  // Only for someone who has never set a password: anyone else would lose theirs to a new
  // temporary one. The pool refuses such a resend too; asking first gives the admin a clear answer.
  let status: string | null;
  try {
    status = (await deps.identity.directory.getUser(row.cognito_username))?.status ?? null;
  } catch (err) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: `user pool refused: ${poolErrorName(err)}` });
    throw poolError(err) ?? err;
  }
  if (status !== 'FORCE_CHANGE_PASSWORD') {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: `password already set (pool status ${status ?? 'unknown'})` });
    throw conflict(AdminErrors.inviteNotPending);
  }
  try {
    await deps.identity.directory.resendInvite(row.cognito_username);
  } catch (err) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: `user pool refused: ${poolErrorName(err)}` });
    if (poolErrorName(err) === 'UnsupportedUserStateException') throw conflict(AdminErrors.inviteNotPending);
    throw poolError(err) ?? err;
  }
  await audit(deps.db, ctx, { ...base, outcome: 'success' });
  return present(row, await cognitoStatusOf(deps, row.cognito_username));
}

/**
 * Disable: the portal first, in one transaction (status, every session ended, audit), because
 * that takes effect at once on every instance; then the pool stops sign-in and revokes its
 * tokens. If the pool step fails the user is still locked out of the portal, and the failure is
 * audited and reported.
 */
export async function disableUser(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const base = { action: 'user.disable', resourceType: 'user', resourceId: id, targetUserId: id } as const;
  if (id === ctx.actor.id) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: 'cannot disable self' });
    throw badRequest(AdminErrors.cannotDisableSelf);
  }
  const row = await withTransaction(deps.db, async (tx) => {
    const locked = await lockUser(tx, id);
    if (!locked) return null;
    const updated = await setUserStatus(tx, id, 'disabled');
    const sessionsEnded = await endAllSessionsOf(tx, id, 'disabled');
    await audit(tx, ctx, { ...base, outcome: 'success', details: { sessions_ended: sessionsEnded } });
    return updated;
  });
  if (!row) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: 'not found' });
    throw notFound();
  }
  await applyToPool(deps, ctx, row, 'disabled');
  return present(row, await cognitoStatusOf(deps, row.cognito_username));
}

/** Enable: the pool first (so sign-in works), then the portal row with its audit record. */
export async function enableUser(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const base = { action: 'user.enable', resourceType: 'user', resourceId: id, targetUserId: id } as const;
  const existing = await requireUser(deps, ctx, id, 'user.enable');
  await applyToPool(deps, ctx, existing, 'active');
  const row = await withTransaction(deps.db, async (tx) => {
    const updated = await setUserStatus(tx, id, 'active');
    await audit(tx, ctx, { ...base, outcome: 'success' });
    return updated;
  });
  if (!row) throw notFound();
  return present(row, await cognitoStatusOf(deps, row.cognito_username));
}

async function applyToPool(deps: Deps, ctx: SignedInContext, row: UserRow, status: UserStatus): Promise<void> {
  if (!row.cognito_username) return;
  const action = status === 'active' ? 'user.enable' : 'user.disable';
  try {
    if (status === 'active') {
      await deps.identity.directory.enableUser(row.cognito_username);
    } else {
      await deps.identity.directory.disableUser(row.cognito_username);
      await deps.identity.directory.signOutEverywhere(row.cognito_username);
    }
  } catch (err) {
    await audit(deps.db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'user',
      resourceId: row.id,
      targetUserId: row.id,
      reason: `user pool refused: ${poolErrorName(err)}`,
    });
    throw poolError(err) ?? err;
  }
}

/**
 * Lost phone: the pool forgets the user's TOTP secret and the portal's MFA flag goes off, in that
 * order (the pool is what asks for codes). Nothing else changes and no session ends; the user
 * sets MFA up again at the next sign-in when the pool or the organization requires it.
 */
export async function resetMfa(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const row = await requireUser(deps, ctx, id, 'user.mfa_reset');
  const base = { action: 'user.mfa_reset', resourceType: 'user', resourceId: id, targetUserId: id } as const;
  if (!row.cognito_username) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: 'no user pool account' });
    throw conflict(AdminErrors.userPoolFailed);
  }
  try {
    await deps.identity.directory.resetMfa(row.cognito_username);
  } catch (err) {
    await audit(deps.db, ctx, { ...base, outcome: 'failure', reason: `user pool refused: ${poolErrorName(err)}` });
    throw poolError(err) ?? err;
  }
  const updated = await withTransaction(deps.db, async (tx) => {
    const after = await setUserMfaEnabled(tx, id, false);
    await audit(tx, ctx, { ...base, outcome: 'success', details: { mfa_was_enabled: row.mfa_enabled } });
    return after;
  });
  if (!updated) throw notFound();
  return present(updated, await cognitoStatusOf(deps, updated.cognito_username));
}
