import { normalizeEmail } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Identity } from './index.ts';
import { findPortalUserByEmail, linkPortalUser } from './repositories/portal-users.repository.ts';

/**
 * Makes the first admin able to sign in: the portal's bootstrap created their `public.users` row;
 * this creates the matching pool user once and links it. With a configured password the user is
 * confirmed at once; otherwise a generated temporary password is printed once, on stdout, as a
 * banner for the operator (never through the JSON log), to be changed at first sign-in.
 * Runs before the server listens: the local pool's directory is in this process.
 */
export async function provisionFirstAdmin(deps: {
  identity: Identity;
  db: pg.Pool;
  log: FastifyBaseLogger;
  email: string;
  password?: string;
}): Promise<void> {
  const { identity, db, log } = deps;
  const email = normalizeEmail(deps.email);
  const row = await findPortalUserByEmail(db, email);
  if (!row) {
    log.warn({ email }, 'first admin: no portal user with this email, nothing to provision');
    return;
  }
  if (row.cognito_username) return;

  // The pool may already know the address (an earlier start stopped half way): link, do not fail.
  let poolUser = await identity.directory.getUser(email);
  let temporaryPassword: string | null = null;
  if (!poolUser) {
    if (deps.password) {
      ({ user: poolUser } = await identity.directory.createUser({ email, temporaryPassword: deps.password, suppressMessage: true }));
      await identity.directory.setPassword(poolUser.username, deps.password, true);
    } else {
      ({ user: poolUser, temporaryPassword } = await identity.directory.createUser({ email, suppressMessage: true }));
    }
  } else if (deps.password) {
    await identity.directory.setPassword(poolUser.username, deps.password, true);
  }

  if (!(await linkPortalUser(db, row.id, poolUser))) return; // another instance linked it first
  log.info({ email, username: poolUser.username }, 'first admin linked to the user pool');

  if (temporaryPassword) {
    const lines = [
      '',
      '================================================================',
      '  First administrator account',
      `  Email:              ${email}`,
      `  Temporary password: ${temporaryPassword}`,
      '  Sign in and choose your own password. This is shown only once.',
      '================================================================',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
