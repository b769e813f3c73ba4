import type { AppConfig } from '@rpm/contracts';
import { Amplify } from 'aws-amplify';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { sessionStorage } from 'aws-amplify/utils';

let configured: Promise<void> | null = null;

/**
 * Loads /app-config.json once and points Amplify at the user pool it names. Tokens live in
 * sessionStorage so that they do not outlive the tab. A failed load is not cached, so the next
 * attempt (e.g. the next click on Login) tries again.
 */
export function ensureAmplifyConfigured(): Promise<void> {
  configured ??= (async () => {
    const res = await fetch('/app-config.json', { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`Could not load the sign-in configuration (${res.status})`);
    const config = (await res.json()) as AppConfig;
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: config.userPoolId,
          userPoolClientId: config.clientId,
          ...(config.userPoolEndpoint ? { userPoolEndpoint: poolEndpointUrl(config.userPoolEndpoint) } : {}),
        },
      },
    });
    cognitoUserPoolsTokenProvider.setKeyValueStorage(sessionStorage);
  })().catch((err: unknown) => {
    configured = null;
    throw err;
  });
  return configured;
}

/**
 * The built-in pool's endpoint comes as a path: it is resolved against the address this page was
 * opened at (localhost, 127.0.0.1 or a host name), which is also the one the CSP allows. Amplify
 * needs an absolute URL.
 */
export function poolEndpointUrl(endpoint: string): string {
  return new URL(endpoint, window.location.origin).toString().replace(/\/+$/, '');
}
