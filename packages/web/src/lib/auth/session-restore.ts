import type { CurrentUser } from '@rpm/contracts';
import { getMe } from '../../api/me/get-me.ts';
import { exchangeToken } from '../../api/token/exchange-token.ts';
import { poolAuth } from '../pool-auth.ts';
import { isSessionExpiredFlagSet } from '../session/expired-flag.ts';

/*
 * What a page load needs to find its session, kept apart from the React provider (and its
 * imports) so that it can start before the rest of the app has loaded.
 */

/*
 * The session cookie is HttpOnly, so the page cannot see whether it has one. This hint (shared by
 * the tabs of the browser) says a session was opened here and not closed; without it a signed-out
 * visit does not ask /api/me just to be told 401.
 */
const SESSION_HINT_KEY = 'rpm.hasSession';
export function setHint(on: boolean) {
  try {
    if (on) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    /* storage blocked */
  }
}
export function hasHint(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return true;
  }
}

/*
 * Set in this tab the moment it signs out, before the user pool has forgotten its tokens (that
 * takes a network call). A reload in between must not sign the tab back in with those tokens.
 */
const SIGNED_OUT_KEY = 'rpm.signedOut';
export function markSignedOut(on: boolean) {
  try {
    if (on) sessionStorage.setItem(SIGNED_OUT_KEY, '1');
    else sessionStorage.removeItem(SIGNED_OUT_KEY);
  } catch {
    /* storage blocked */
  }
}
export function wasSignedOut(): boolean {
  try {
    return sessionStorage.getItem(SIGNED_OUT_KEY) === '1';
  } catch {
    return false;
  }
}

/*
 * Whether this tab holds user-pool tokens at all, read from Amplify's own sessionStorage keys so
 * that a signed-out visit does not load Amplify just to learn it has none.
 */
function mayHavePoolTokens(): boolean {
  try {
    for (let i = 0; i < sessionStorage.length; i++) {
      if (sessionStorage.key(i)?.startsWith('CognitoIdentityServiceProvider.')) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/**
 * The access token Amplify holds for this tab, or null when the tab is not signed in to the pool.
 * `fresh` asks the pool for a new one: the server opens at most one session per access token, so a
 * reload or a second tab needs its own.
 */
export async function currentAccessToken({ fresh = false }: { fresh?: boolean } = {}): Promise<string | null> {
  const session = await (await poolAuth()).fetchAuthSession({ forceRefresh: fresh });
  return session.tokens?.accessToken?.toString() ?? null;
}

/** Forgets this tab's user-pool tokens. Never throws: a failed revoke must not keep anyone signed in. */
export async function forgetPoolTokens(): Promise<void> {
  try {
    await (await poolAuth()).signOut();
  } catch {
    /* the tokens are cleared locally even when the revoke call fails */
  }
}

let sessionRestore: Promise<CurrentUser | null> | null = null;
let settledAnswer: { user: CurrentUser | null } | null = null;

/** The provider took the answer: a later provider (a test, a remount) checks anew. */
export function sessionRestoreTaken(): void {
  sessionRestore = null;
  settledAnswer = null;
}

/**
 * The pending check's answer when it has already arrived (the app waited for it before its first
 * render), else null: the provider then starts from that answer instead of a loading state.
 */
export function settledSessionRestore(): { user: CurrentUser | null } | null {
  return settledAnswer;
}

/**
 * The page load's session check: with this tab's pool tokens, a fresh portal session (its answer
 * names the user); else, when a session was left open here, the current user. main.tsx starts it
 * before the app's code is even loaded, so that it runs while the app loads and renders; the provider takes its answer
 * (and the next provider mounted starts a new check).
 */
export function restoreSession(): Promise<CurrentUser | null> {
  if (sessionRestore) return sessionRestore;
  const check = (async () => {
    if (isSessionExpiredFlagSet()) return null;
    let token: string | null = null;
    if (wasSignedOut()) {
      // Signed out here, but the pool's tokens may have outlived the page: drop them now.
      void forgetPoolTokens();
    } else if (mayHavePoolTokens()) {
      // This tab still holds pool tokens after a reload or a typed URL: open a fresh portal
      // session with them rather than trust a cookie the page-close beacon may have ended.
      token = await currentAccessToken({ fresh: true }).catch(() => null);
    }
    try {
      if (token) return await exchangeToken(token);
      if (hasHint()) return await getMe();
    } catch {
      /* no session */
    }
    return null;
  })();
  sessionRestore = check;
  void check.then((user) => {
    if (sessionRestore === check) settledAnswer = { user };
  });
  return check;
}

