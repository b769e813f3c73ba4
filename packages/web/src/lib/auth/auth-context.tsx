import { Toasts, type CurrentUser, type MeResponse } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { poolAuth } from '../pool-auth.ts';
import { apiGet, apiPost, errorMessage } from '../api-client.ts';
import { openSessionChannel } from '../session/session-channel.ts';
import { clearSessionExpiredFlag, isSessionExpiredFlagSet, setSessionExpiredFlag } from '../session/expired-flag.ts';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export interface AuthValue {
  status: AuthStatus;
  user: CurrentUser | null;
  /** The expired-session flag: the Session Ended modal is up until Leave consumes it. */
  expired: boolean;
  /** After the user pool says DONE: trade the access token for a portal session, load the user. */
  completeSignIn(): Promise<boolean>;
  /** Loads /api/me again (e.g. after the MFA preference changed). */
  refreshUser(): Promise<CurrentUser | null>;
  /** Manual logout. `fromOtherTab` when another tab already ended the shared session. */
  logout(opts?: { fromOtherTab?: boolean }): Promise<void>;
  /** Idle timeout or a 401: sign out and raise the expired flag. */
  expireSession(opts?: { fromOtherTab?: boolean }): Promise<void>;
  /** The modal's Leave button: consume the flag (the caller goes to /login). */
  leave(): Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

/*
 * The session cookie is HttpOnly, so the page cannot see whether it has one. This hint (shared by
 * the tabs of the browser) says a session was opened here and not closed; without it a signed-out
 * visit does not ask /api/me just to be told 401.
 */
const SESSION_HINT_KEY = 'rpm.hasSession';
function setHint(on: boolean) {
  try {
    if (on) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    /* storage blocked */
  }
}
function hasHint(): boolean {
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
function markSignedOut(on: boolean) {
  try {
    if (on) sessionStorage.setItem(SIGNED_OUT_KEY, '1');
    else sessionStorage.removeItem(SIGNED_OUT_KEY);
  } catch {
    /* storage blocked */
  }
}
function wasSignedOut(): boolean {
  try {
    return sessionStorage.getItem(SIGNED_OUT_KEY) === '1';
  } catch {
    return false;
  }
}

async function loadMe(): Promise<CurrentUser> {
  return (await apiGet<MeResponse>('/api/me')).user;
}

/**
 * The access token Amplify holds for this tab, or null when the tab is not signed in to the pool.
 * `fresh` asks the pool for a new one: the server opens at most one session per access token, so a
 * reload or a second tab needs its own.
 */
async function currentAccessToken({ fresh = false }: { fresh?: boolean } = {}): Promise<string | null> {
  const session = await (await poolAuth()).fetchAuthSession({ forceRefresh: fresh });
  return session.tokens?.accessToken?.toString() ?? null;
}

/** Forgets this tab's user-pool tokens. Never throws: a failed revoke must not keep anyone signed in. */
async function forgetPoolTokens(): Promise<void> {
  try {
    await (await poolAuth()).signOut();
  } catch {
    /* the tokens are cleared locally even when the revoke call fails */
  }
}

/** Ends the portal session on the server; a failure (already gone, offline) changes nothing here. */
async function endServerSession(): Promise<void> {
  try {
    await fetch('/api/logout', { method: 'POST', credentials: 'same-origin' });
  } catch {
    /* offline: the server's idle timeout ends it */
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const { enqueueSnackbar } = useSnackbar();
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [expired, setExpired] = useState<boolean>(isSessionExpiredFlagSet);
  // Read by expireSession, which many events may call at once: only the first one acts.
  const statusRef = useRef(status);
  useEffect(() => {
    statusRef.current = status;
  }, [status]);

  const signedOut = useCallback(() => {
    markSignedOut(true);
    setHint(false);
    setUser(null);
    setStatus('signed-out');
  }, []);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      let next: CurrentUser | null = null;
      if (!isSessionExpiredFlagSet()) {
        let token: string | null = null;
        if (wasSignedOut()) {
          // Signed out here, but the pool's tokens may have outlived the page: drop them now.
          void forgetPoolTokens();
        } else {
          // This tab still holds pool tokens after a reload or a typed URL: open a fresh portal
          // session with them rather than trust a cookie the page-close beacon may have ended.
          token = await currentAccessToken({ fresh: true }).catch(() => null);
        }
        try {
          if (token) {
            await apiPost('/api/token', { token });
            next = await loadMe();
          } else if (hasHint()) {
            next = await loadMe();
          }
        } catch {
          next = null;
        }
      }
      if (cancelled) return;
      if (next) {
        markSignedOut(false);
        setHint(true);
        setUser(next);
        setStatus('signed-in');
      } else {
        signedOut();
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [signedOut]);

  const completeSignIn = useCallback(async (): Promise<boolean> => {
    try {
      const token = await currentAccessToken();
      if (!token) throw new Error('no access token');
      await apiPost('/api/token', { token });
    } catch (err) {
      enqueueSnackbar(errorMessage(err, Toasts.sessionError), { variant: 'error' });
      await forgetPoolTokens();
      return false;
    }
    try {
      const me = await loadMe();
      clearSessionExpiredFlag();
      markSignedOut(false);
      setExpired(false);
      setHint(true);
      setUser(me);
      setStatus('signed-in');
      return true;
    } catch {
      enqueueSnackbar(Toasts.failedToLoadUser, { variant: 'error' });
      await endServerSession();
      await forgetPoolTokens();
      signedOut();
      return false;
    }
  }, [enqueueSnackbar, signedOut]);

  const refreshUser = useCallback(async (): Promise<CurrentUser | null> => {
    try {
      const me = await loadMe();
      setUser(me);
      return me;
    } catch {
      return null;
    }
  }, []);

  const logout = useCallback(
    async (opts: { fromOtherTab?: boolean } = {}) => {
      signedOut();
      if (!opts.fromOtherTab) {
        // The tabs share one session cookie: tell them it is gone.
        const channel = openSessionChannel(() => {});
        channel.post({ type: 'logout' });
        setTimeout(() => channel.close(), 1000);
        await endServerSession();
      }
      await forgetPoolTokens();
    },
    [signedOut],
  );

  const expireSession = useCallback(
    async (opts: { fromOtherTab?: boolean } = {}) => {
      if (statusRef.current !== 'signed-in') return;
      statusRef.current = 'signed-out';
      setSessionExpiredFlag();
      setExpired(true);
      signedOut();
      if (!opts.fromOtherTab) await endServerSession();
      await forgetPoolTokens();
    },
    [signedOut],
  );

  const leave = useCallback(async () => {
    clearSessionExpiredFlag();
    setExpired(false);
    signedOut();
    await forgetPoolTokens();
  }, [signedOut]);

  const value = useMemo<AuthValue>(
    () => ({ status, user, expired, completeSignIn, refreshUser, logout, expireSession, leave }),
    [status, user, expired, completeSignIn, refreshUser, logout, expireSession, leave],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
