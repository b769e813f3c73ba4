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
import { generateTemporaryPassword } from './password.ts';

/**
 * The portal's view of the user pool's users, through the AWS SDK: the same code drives a real
 * Cognito pool and the local one (whose admin endpoint checks the SDK's SigV4 signature).
 * With the local pool the SDK calls this very server over HTTP, so these calls need the server
 * to be listening.
 */

export interface DirectoryUser {
  username: string;
  sub: string;
  email: string;
  status: string;
  enabled: boolean;
  mfaEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  passwordChangedAt: Date | null;
}

export interface UserDirectory {
  createUser(input: { email: string; temporaryPassword?: string; suppressMessage?: boolean }): Promise<{
    user: DirectoryUser;
    temporaryPassword: string;
  }>;
  resendInvite(username: string): Promise<{ temporaryPassword: string }>;
  setPassword(username: string, password: string, permanent: boolean): Promise<void>;
  getUser(username: string): Promise<DirectoryUser | null>;
  listUsers(): Promise<DirectoryUser[]>;
  enableUser(username: string): Promise<void>;
  disableUser(username: string): Promise<void>;
  signOutEverywhere(username: string): Promise<void>;
  /**
   * Lost phone: TOTP MFA off, so that MFA is set up again (at the next sign-in when required).
   * The local pool forgets the secret; Cognito keeps the device but stops asking for it.
   */
  resetMfa(username: string): Promise<void>;
}

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
  return toDirectoryUser({ ...u, mfaEnabled: localMfa !== undefined ? localMfa === 'true' : (u.MFAOptions?.length ?? 0) > 0 });
}

function isNotFound(err: unknown): boolean {
  return (err as { name?: string }).name === 'UserNotFoundException';
}

export function createDirectory(client: CognitoIdentityProviderClient, userPoolId: string): UserDirectory {
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
        new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: username, Password: password, Permanent: permanent }),
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
        const out = await client.send(new ListUsersCommand({ UserPoolId: userPoolId, Limit: 60, PaginationToken: token }));
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
