/**
 * Signs in to a user pool with SRP using Amplify v6, the same client library the browser uses,
 * and returns the access token. Tokens are kept in memory and dropped after each sign-in.
 */
import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, signIn } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';

export interface PoolConfig {
  userPoolId: string;
  clientId: string;
  userPoolEndpoint?: string;
}

class MemoryStorage {
  private items = new Map<string, string>();
  async setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  async getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  async removeItem(key: string) {
    this.items.delete(key);
  }
  async clear() {
    this.items.clear();
  }
}
const storage = new MemoryStorage();

// Amplify is a process-wide singleton: sign-ins must not interleave.
let queue: Promise<unknown> = Promise.resolve();

/**
 * `newPassword` answers a NEW_PASSWORD_REQUIRED challenge (first sign-in with a temporary
 * password); without it such a challenge is an error.
 */
export function srpAccessToken(
  pool: PoolConfig,
  email: string,
  password: string,
  opts: { newPassword?: string } = {},
): Promise<string> {
  const run = async () => {
    Amplify.configure({
      Auth: { Cognito: { userPoolId: pool.userPoolId, userPoolClientId: pool.clientId, userPoolEndpoint: pool.userPoolEndpoint } },
    });
    // configure() resets the token store, so ours is set after it, every time.
    cognitoUserPoolsTokenProvider.setKeyValueStorage(storage);
    await storage.clear();
    try {
      let result = await signIn({ username: email, password });
      if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' && opts.newPassword) {
        result = await confirmSignIn({ challengeResponse: opts.newPassword });
      }
      if (result.nextStep.signInStep !== 'DONE') throw new Error(`sign-in stopped at ${result.nextStep.signInStep}`);
      const token = (await fetchAuthSession()).tokens?.accessToken.toString();
      if (!token) throw new Error('no access token after sign-in');
      return token;
    } finally {
      await storage.clear();
    }
  };
  const next = queue.then(run, run);
  queue = next.catch(() => {});
  return next;
}
