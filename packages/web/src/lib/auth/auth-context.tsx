import { CARE_TIMER_STORAGE_PREFIX, Toasts, type CurrentUser } from '@rpm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from '../toast/toast.ts';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { errorMessage } from '../../api/errors.ts';
import { getMe } from '../../api/me/get-me.ts';
import { endServerSession } from '../../api/session/end-session.ts';
import { exchangeToken } from '../../api/token/exchange-token.ts';
import { openSessionChannel } from '../session/session-channel.ts';
import { clearSessionExpiredFlag, isSessionExpiredFlagSet, setSessionExpiredFlag } from '../session/expired-flag.ts';
import { removeStoredByPrefix } from '../session/stored-keys.ts';
import { startCacheFor } from './query-cache.ts';
import {
  forgetPoolTokens,
  currentAccessToken,
  markSignedOut,
  restoreSession,
  sessionRestoreTaken,
  setHint,
  settledSessionRestore,
} from './session-restore.ts';

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

export interface AuthProviderProps {
  children: ReactNode;
  /**
   * Called once the page load has restored a session, before anything renders for the user:
   * the moment to start fetching the first page's data.
   */
  onSessionRestored?(user: CurrentUser): void;
}

export function AuthProvider({ children, onSessionRestored }: AuthProviderProps) {
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const restored = useRef(onSessionRestored);
  // When the app waited for the page load's check and it found no session, the first render is
  // already the signed-out one (no loading state flashes between the page's HTML and the app).
  const [status, setStatus] = useState<AuthStatus>(() =>
    settledSessionRestore()?.user === null ? 'signed-out' : 'loading',
  );
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
    startCacheFor(queryClient, null);
    setUser(null);
    setStatus('signed-out');
  }, [queryClient]);

  /** Everything a sign-in (or a restored session) sets, the cache first. */
  const signedIn = useCallback(
    (me: CurrentUser) => {
      startCacheFor(queryClient, me.id);
      markSignedOut(false);
      setHint(true);
      setUser(me);
      setStatus('signed-in');
    },
    [queryClient],
  );

  useEffect(() => {
    let cancelled = false;
    const restoring = restoreSession();
    void restoring.then((next) => {
      if (cancelled) return;
      sessionRestoreTaken();
      // The first screen after the check (the whole frame and the page) renders in slices as a
      // transition rather than in one long task; the checking indicator stays up meanwhile.
      startTransition(() => {
        if (next) signedIn(next);
        else signedOut();
      });
      if (next) restored.current?.(next);
    });
    return () => {
      cancelled = true;
    };
  }, [signedIn, signedOut]);

  const completeSignIn = useCallback(async (): Promise<boolean> => {
    try {
      const token = await currentAccessToken();
      if (!token) throw new Error('no access token');
      await exchangeToken(token);
    } catch (err) {
      enqueueSnackbar(errorMessage(err, Toasts.sessionError), { variant: 'error' });
      await forgetPoolTokens();
      return false;
    }
    try {
      // The spec's separate current-user load, with its own "Failed to load user".
      const me = await getMe();
      clearSessionExpiredFlag();
      setExpired(false);
      signedIn(me);
      return true;
    } catch {
      enqueueSnackbar(Toasts.failedToLoadUser, { variant: 'error' });
      await endServerSession();
      await forgetPoolTokens();
      signedOut();
      return false;
    }
  }, [enqueueSnackbar, signedIn, signedOut]);

  const refreshUser = useCallback(async (): Promise<CurrentUser | null> => {
    try {
      const me = await getMe();
      setUser(me);
      return me;
    } catch {
      return null;
    }
  }, []);

  const logout = useCallback(
    async (opts: { fromOtherTab?: boolean } = {}) => {
      signedOut();
      // Signing out leaves no care timer or unlogged time behind on the workstation (an expiry
      // keeps them: the person comes back to log that time).
      removeStoredByPrefix(CARE_TIMER_STORAGE_PREFIX);
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
