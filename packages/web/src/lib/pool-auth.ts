/** The name authenticator apps show next to the account. */
export const TOTP_ISSUER = 'RPM Portal';

/**
 * Amplify's auth API, loaded on first use and pointed at the user pool: the sign-in page shows
 * before Amplify has loaded, and pages that never talk to the pool do not load it at all.
 */
export async function poolAuth(): Promise<typeof import('aws-amplify/auth')> {
  const [{ ensureAmplifyConfigured }, auth] = await Promise.all([import('./amplify.ts'), import('aws-amplify/auth')]);
  await ensureAmplifyConfigured();
  return auth;
}
