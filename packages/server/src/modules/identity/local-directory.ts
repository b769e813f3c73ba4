import type { DirectoryUser, UserDirectory } from './directory.ts';
import { generateTemporaryPassword } from './password.ts';
import * as admin from './pool/admin.ts';
import type { PoolContext } from './pool/context.ts';
import { hasTotpMfa } from './pool/presenters.ts';
import type { UserRow } from './repositories/users.repository.ts';

/**
 * The directory over the local pool in this process: the administration capability called
 * directly, without HTTP or signatures, so the first admin can be provisioned before the server
 * listens and, behind a load balancer, an admin call never leaves the instance. The pool's own
 * errors (CognitoError, named like Cognito's exceptions) reach the caller as the SDK's would.
 */
export function createLocalDirectory(ctx: PoolContext): UserDirectory {
  const directory: UserDirectory = {
    async createUser({ email, temporaryPassword, suppressMessage }) {
      // Chosen here, as the Cognito adapter must (Cognito never returns a generated password).
      const password = temporaryPassword ?? generateTemporaryPassword();
      const row = await admin.createUser(ctx, {
        username: email,
        email,
        temporaryPassword: password,
        ...(suppressMessage ? { messageAction: 'SUPPRESS' as const } : {}),
      });
      // As AdminCreateUser answers: no password date for a user who has only a temporary one.
      return { user: { ...directoryUserOf(row), passwordChangedAt: null }, temporaryPassword: password };
    },

    async resendInvite(username) {
      const password = generateTemporaryPassword();
      // RESEND works only for users who still have to change their password: the pool refuses
      // anyone else (UnsupportedUserStateException), so a confirmed password is never replaced.
      await admin.createUser(ctx, { username, temporaryPassword: password, messageAction: 'RESEND' });
      return { temporaryPassword: password };
    },

    async setPassword(username, password, permanent) {
      await admin.setPassword(ctx, username, password, permanent);
    },

    async getUser(username) {
      try {
        return directoryUserOf(await admin.userNamed(ctx, username));
      } catch (err) {
        if ((err as { name?: string }).name === 'UserNotFoundException') return null;
        throw err;
      }
    },

    async listUsers() {
      const all: DirectoryUser[] = [];
      let after: admin.UserCursor | null = null;
      do {
        const page: Awaited<ReturnType<typeof admin.listUsers>> = await admin.listUsers(ctx, {
          limit: 60,
          after,
          filter: null,
        });
        all.push(...page.users.map(directoryUserOf));
        after = page.next;
      } while (after);
      return all;
    },

    async enableUser(username) {
      await admin.setEnabled(ctx, username, true);
    },

    async disableUser(username) {
      await admin.setEnabled(ctx, username, false);
      // Disabling alone leaves issued tokens usable until they expire.
      await directory.signOutEverywhere(username);
    },

    async signOutEverywhere(username) {
      await admin.signOutEverywhere(ctx, username);
    },

    async resetMfa(username) {
      await admin.setMfaPreference(ctx, username, { Enabled: false, PreferredMfa: false });
    },
  };
  return directory;
}

function directoryUserOf(user: UserRow): DirectoryUser {
  return {
    username: user.username,
    sub: user.username,
    email: user.email,
    status: user.status,
    enabled: user.enabled,
    mfaEnabled: hasTotpMfa(user),
    createdAt: user.created_at,
    updatedAt: user.updated_at,
    passwordChangedAt: user.password_changed_at,
  };
}
