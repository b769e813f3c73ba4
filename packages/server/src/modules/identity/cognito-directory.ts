import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { DirectoryUser, UserDirectory } from './directory.ts';
import { generateTemporaryPassword } from './password.ts';

/**
 * The directory over a Cognito user pool, through the AWS SDK. It also drives the local pool's
 * SigV4-protected HTTP endpoint, as any external caller would (the directory test suite does).
 */

function attr(list: AttributeType[] | undefined, name: string): string | undefined {
  return list?.find((a) => a.Name === name)?.Value;
}

function toDirectoryUser(input: {
  Username?: string;
  Attributes?: AttributeType[];
  UserStatus?: string;
  Enabled?: boolean;
  UserCreateDate?: Date;
  UserLastModifiedDate?: Date;
  mfaEnabled: boolean;
}): DirectoryUser {
  const changed = attr(input.Attributes, 'custom:password_changed_at');
  return {
    username: input.Username ?? '',
    sub: attr(input.Attributes, 'sub') ?? input.Username ?? '',
    email: attr(input.Attributes, 'email') ?? '',
    status: input.UserStatus ?? 'UNKNOWN',
    enabled: input.Enabled ?? false,
    mfaEnabled: input.mfaEnabled,
    createdAt: input.UserCreateDate ?? new Date(0),
    updatedAt: input.UserLastModifiedDate ?? input.UserCreateDate ?? new Date(0),
    passwordChangedAt: changed ? new Date(changed) : null,
  };
}

function fromUserType(u: UserType): DirectoryUser {
  const localMfa = attr(u.Attributes, 'custom:mfa_enabled');
  return toDirectoryUser({
    ...u,
    mfaEnabled: localMfa !== undefined ? localMfa === 'true' : (u.MFAOptions?.length ?? 0) > 0,
  });
}

function isNotFound(err: unknown): boolean {
  return (err as { name?: string }).name === 'UserNotFoundException';
}

export function createCognitoDirectory(client: CognitoIdentityProviderClient, userPoolId: string): UserDirectory {
  const directory: UserDirectory = {
    async createUser({ email, temporaryPassword, suppressMessage }) {
      // Cognito never returns a generated password, so we always choose it ourselves.
      const password = temporaryPassword ?? generateTemporaryPassword();
      const out = await client.send(
        new AdminCreateUserCommand({
          UserPoolId: userPoolId,
          Username: email,
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
          TemporaryPassword: password,
          DesiredDeliveryMediums: ['EMAIL'],
          ...(suppressMessage ? { MessageAction: 'SUPPRESS' as const } : {}),
        }),
      );
      if (!out.User) throw new Error('the user pool did not return the new user');
      return { user: fromUserType(out.User), temporaryPassword: password };
    },

    async resendInvite(username) {
      const password = generateTemporaryPassword();
      // RESEND works only for users who still have to change their password: the pool refuses
      // anyone else (UnsupportedUserStateException), so a confirmed password is never replaced.
      await client.send(
        new AdminCreateUserCommand({
          UserPoolId: userPoolId,
          Username: username,
          TemporaryPassword: password,
          MessageAction: 'RESEND',
          DesiredDeliveryMediums: ['EMAIL'],
        }),
      );
      return { temporaryPassword: password };
    },

    async setPassword(username, password, permanent) {
      await client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: userPoolId,
          Username: username,
          Password: password,
          Permanent: permanent,
        }),
      );
    },

    async getUser(username) {
      try {
        const out = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
        return toDirectoryUser({
          Username: out.Username,
          Attributes: out.UserAttributes,
          UserStatus: out.UserStatus,
          Enabled: out.Enabled,
          UserCreateDate: out.UserCreateDate,
          UserLastModifiedDate: out.UserLastModifiedDate,
          mfaEnabled: (out.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA'),
        });
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async listUsers() {
      const users: DirectoryUser[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(
          new ListUsersCommand({ UserPoolId: userPoolId, Limit: 60, PaginationToken: token }),
        );
        for (const u of out.Users ?? []) users.push(fromUserType(u));
        token = out.PaginationToken;
      } while (token);
      return users;
    },

    async enableUser(username) {
      await client.send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: username }));
    },

    async disableUser(username) {
      await client.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: username }));
      // Disabling alone leaves issued tokens usable until they expire.
      await directory.signOutEverywhere(username);
    },

    async signOutEverywhere(username) {
      await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
    },

    async resetMfa(username) {
      await client.send(
        new AdminSetUserMFAPreferenceCommand({
          UserPoolId: userPoolId,
          Username: username,
          SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
        }),
      );
    },
  };
  return directory;
}
