import { AdminErrors, ApiErrors, blankToNull, normalizeEmail, type AdminUser, type CreateUserBody, type UserStatus, type AuditAction } from '@rpm/contracts';
import { withTransaction } from '../../db/pool.ts';
import type { DirectoryUser } from '../identity/index.ts';
import { authorize } from '../../kernel/access.ts';
import { failure, recordingRefusals } from '../../kernel/audited-transaction.ts';
import { HttpError, badRequest, conflict } from '../../kernel/errors.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayAdministerUsers, mayDisableUser } from '../../policies/users.ts';
import { presentUser, presentUserWithPool } from './users.presenter.ts';
import { audit, type AuditEvent } from '../../kernel/audit-writer.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { organizationExists } from '../organizations/index.ts';
import { roleExists } from '../roles/index.ts';
import { endAllSessionsOf } from '../sessions/index.ts';
import { emailTaken, findUser, insertUser, listUsers, lockUser, updateUser, type UserRow } from './users.repository.ts';

type Deps = Pick<ModuleDeps, 'db' | 'identity'>;
type Failure = Omit<AuditEvent, 'outcome'>;

/** The access call of every staff administration method (the route says admin too). */
function authorizeAdministration(ctx: SignedInContext, action: AuditAction, id: number | null = null): void {
  authorize(mayAdministerUsers(ctx.actor), {
    action,
    resourceType: 'user',
    resourceId: id,
    targetUserId: id,
    reason: 'staff administration is for admins',
  });
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

/**
 * Records a failure and passes `err` on: an HttpError as an audited refusal (recorded by
 * recordingRefusals), anything else (an internal error) recorded here and thrown as it came.
 */
async function failWith(deps: Deps, ctx: SignedInContext, event: Failure, err: unknown): Promise<never> {
  if (err instanceof HttpError) throw failure(err.statusCode, err.message, event);
  await audit(deps.db, ctx, { ...event, outcome: 'failure' });
  throw err;
}

/** A call to the user pool; a refusal is recorded, and the pool errors in `known` answered as given. */
async function fromPool<T>(
  deps: Deps,
  ctx: SignedInContext,
  event: Omit<Failure, 'reason'>,
  call: () => Promise<T>,
  known: Record<string, HttpError> = {},
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const name = poolErrorName(err);
    return failWith(deps, ctx, { ...event, reason: `user pool refused: ${name}` }, known[name] ?? poolError(err) ?? err);
  }
}

async function poolStatusOf(deps: Deps, username: string | null): Promise<string | null> {
  if (!username) return null;
  try {
    return (await deps.identity.directory.getUser(username))?.status ?? null;
  } catch {
    return null; // the row is still worth showing; the status column just stays empty
  }
}

/** A user after a change, with the pool's status read afresh. */
async function presentAfter(deps: Deps, row: UserRow): Promise<AdminUser> {
  return presentUser(row, await poolStatusOf(deps, row.cognito_username));
}

/** The user list, joined with the pool's status by username with ONE pool call. */
export async function getUsers(deps: Deps, ctx: SignedInContext): Promise<AdminUser[]> {
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, 'user.list');
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
    const poolReportsMfa = deps.identity.mode === 'local';
    return rows.map((r) => presentUserWithPool(r, r.cognito_username ? poolByUsername.get(r.cognito_username) : undefined, poolReportsMfa));
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
  const action = 'user.create';
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, action);
    const refuse = (reason: string, err: HttpError) => failure(err.statusCode, err.message, { action, resourceType: 'user', reason });
    const email = normalizeEmail(body.email);
    if (await emailTaken(deps.db, email)) throw refuse('duplicate email', conflict(AdminErrors.emailTaken));
    if (!(await roleExists(deps.db, body.role))) throw refuse('unknown role', badRequest(AdminErrors.unknownRole));
    if (!(await organizationExists(deps.db, body.organization_id))) {
      throw refuse('unknown organization', badRequest(AdminErrors.unknownOrganization));
    }
    const firstName = blankToNull(body.first_name);
    const lastName = blankToNull(body.last_name);
    if (!firstName || !lastName) throw refuse('name required', badRequest(ApiErrors.badRequest));

    const created = await fromPool(deps, ctx, { action, resourceType: 'user' }, () => deps.identity.directory.createUser({ email }), {
      UsernameExistsException: conflict(AdminErrors.emailTakenInPool),
    });

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
          action,
          outcome: 'success',
          resourceType: 'user',
          resourceId: inserted.id,
          targetUserId: inserted.id,
          details: { role: body.role, organization_id: body.organization_id },
        });
        return inserted;
      });
      return { user: presentUser(row, created.user.status ?? null), temp_password: created.temporaryPassword };
    } catch (err) {
      await deps.identity.directory.disableUser(created.user.username).catch(() => {});
      const duplicate = (err as { code?: string }).code === '23505';
      const reason = `portal insert failed: ${duplicate ? 'duplicate' : 'error'}; pool account disabled`;
      return failWith(deps, ctx, { action, resourceType: 'user', reason }, duplicate ? conflict(AdminErrors.emailTaken) : err);
    }
  });
}

/** The user an action is about, or a recorded 404. */
async function requireUser(deps: Deps, id: number, action: AuditAction): Promise<UserRow> {
  const row = await findUser(deps.db, id);
  if (!row) throw failure(404, ApiErrors.notFound, { action, resourceType: 'user', resourceId: id, reason: 'not found' });
  return row;
}

/** What an action on one user is recorded as. */
const aboutUser = (action: AuditAction, id: number) => ({ action, resourceType: 'user', resourceId: id, targetUserId: id }) as const;

/** The user an action on their pool account is about, and that account; a portal-only user has none. */
async function requirePoolUser(deps: Deps, id: number, action: AuditAction): Promise<{ row: UserRow; username: string }> {
  const row = await requireUser(deps, id, action);
  if (row.cognito_username) return { row, username: row.cognito_username };
  throw failure(409, AdminErrors.userPoolFailed, { ...aboutUser(action, row.id), reason: 'no user pool account' });
}

export async function resendInvite(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const action = 'user.resend_invite';
  const base = aboutUser(action, id);
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, action, id);
    const { row, username } = await requirePoolUser(deps, id, action);
    // Only for someone who has never set a password: anyone else would lose theirs to a new
    // temporary one. The pool refuses such a resend too; asking first gives the admin a clear answer.
    const status = (await fromPool(deps, ctx, base, () => deps.identity.directory.getUser(username)))?.status ?? null;
    if (status !== 'FORCE_CHANGE_PASSWORD') {
      throw failure(409, AdminErrors.inviteNotPending, { ...base, reason: `password already set (pool status ${status ?? 'unknown'})` });
    }
    await fromPool(deps, ctx, base, () => deps.identity.directory.resendInvite(username), {
      UnsupportedUserStateException: conflict(AdminErrors.inviteNotPending),
    });
    await audit(deps.db, ctx, { ...base, outcome: 'success' });
    return presentAfter(deps, row);
  });
}

/**
 * Disable: the portal first, in one transaction (status, every session ended, audit), because
 * that takes effect at once on every instance; then the pool stops sign-in and revokes its
 * tokens. If the pool step fails the user is still locked out of the portal, and the failure is
 * audited and reported.
 */
export async function disableUser(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const action = 'user.disable';
  const base = aboutUser(action, id);
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, action, id);
    authorize(mayDisableUser(ctx.actor, { id }), { ...base, reason: 'cannot disable self', status: 400, message: AdminErrors.cannotDisableSelf });
    const row = await withTransaction(deps.db, async (tx) => {
      if (!(await lockUser(tx, id))) throw failure(404, ApiErrors.notFound, { ...base, reason: 'not found' });
      const updated = (await updateUser(tx, id, { status: 'disabled' }))!;
      const sessionsEnded = await endAllSessionsOf(tx, id, 'disabled');
      await audit(tx, ctx, { ...base, outcome: 'success', details: { sessions_ended: sessionsEnded } });
      return updated;
    });
    await applyToPool(deps, ctx, row, 'disabled');
    return presentAfter(deps, row);
  });
}

/** Enable: the pool first (so sign-in works), then the portal row with its audit record. */
export async function enableUser(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const action = 'user.enable';
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, action, id);
    const existing = await requireUser(deps, id, action);
    await applyToPool(deps, ctx, existing, 'active');
    const row = await withTransaction(deps.db, async (tx) => {
      const updated = await updateUser(tx, id, { status: 'active' });
      if (!updated) throw failure(404, ApiErrors.notFound, { ...aboutUser(action, id), reason: 'not found' });
      await audit(tx, ctx, { ...aboutUser(action, id), outcome: 'success' });
      return updated;
    });
    return presentAfter(deps, row);
  });
}

async function applyToPool(deps: Deps, ctx: SignedInContext, row: UserRow, status: UserStatus): Promise<void> {
  const username = row.cognito_username;
  if (!username) return;
  const { directory } = deps.identity;
  await fromPool(deps, ctx, aboutUser(status === 'active' ? 'user.enable' : 'user.disable', row.id), async () => {
    if (status === 'active') {
      await directory.enableUser(username);
    } else {
      await directory.disableUser(username);
      await directory.signOutEverywhere(username);
    }
  });
}

/**
 * Lost phone: the pool forgets the user's TOTP secret and the portal's MFA flag goes off, in that
 * order (the pool is what asks for codes). Nothing else changes and no session ends; the user
 * sets MFA up again at the next sign-in when the pool or the organization requires it.
 */
export async function resetMfa(deps: Deps, ctx: SignedInContext, id: number): Promise<AdminUser> {
  const action = 'user.mfa_reset';
  const base = aboutUser(action, id);
  return recordingRefusals(deps.db, ctx, async () => {
    authorizeAdministration(ctx, action, id);
    const { row, username } = await requirePoolUser(deps, id, action);
    await fromPool(deps, ctx, base, () => deps.identity.directory.resetMfa(username));
    const updated = await withTransaction(deps.db, async (tx) => {
      const after = await updateUser(tx, id, { mfa_enabled: false });
      if (!after) throw failure(404, ApiErrors.notFound, { ...base, reason: 'not found' });
      await audit(tx, ctx, { ...base, outcome: 'success', details: { mfa_was_enabled: row.mfa_enabled } });
      return after;
    });
    return presentAfter(deps, updated);
  });
}
