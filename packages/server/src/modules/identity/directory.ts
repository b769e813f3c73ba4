/**
 * The portal's view of the user pool's users. Two adapters: `cognito-directory.ts` drives a
 * Cognito pool through the AWS SDK; `local-directory.ts` calls the local pool in this process,
 * so that no admin call leaves the instance and none needs the server to be listening. Both
 * answer alike, errors included (a Cognito-style `name`, e.g. UsernameExistsException): one test
 * suite (`directory.test.ts`) runs against each.
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
