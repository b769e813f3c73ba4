import { Amplify } from 'aws-amplify';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { Identity } from '../index.ts';

/** The real Amplify v6 browser client, pointed at a local pool, with in-memory token storage. */
export function configureAmplify(identity: Identity): Map<string, string> {
  const { userPoolId, clientId, userPoolEndpoint } = identity.appConfig;
  Amplify.configure({
    Auth: { Cognito: { userPoolId, userPoolClientId: clientId, ...(userPoolEndpoint ? { userPoolEndpoint } : {}) } },
  });
  const store = new Map<string, string>();
  cognitoUserPoolsTokenProvider.setKeyValueStorage({
    setItem: async (key, value) => void store.set(key, value),
    getItem: async (key) => store.get(key) ?? null,
    removeItem: async (key) => void store.delete(key),
    clear: async () => store.clear(),
  });
  return store;
}

/** The refresh token Amplify keeps for the signed-in user (it never hands it out otherwise). */
export function storedRefreshToken(store: Map<string, string>): string {
  for (const [key, value] of store) if (key.endsWith('.refreshToken')) return value;
  throw new Error('no refresh token stored');
}
