import { ACTIVITY_EVENTS, IDLE_TIMEOUT_MS } from '@rpm/contracts';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { setUnauthorizedListener } from '../api/client.ts';
import { getMe } from '../api/me/get-me.ts';
import { sendLogoutBeacon } from '../api/session/end-session.ts';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { IdleTimer } from '../lib/session/idle-timer.ts';
import { TAB_HEARTBEAT_MS, registerTab, unregisterTab } from '../lib/session/open-tabs.ts';
import { openSessionChannel } from '../lib/session/session-channel.ts';

/** Other tabs hear about activity at most this often; enough for a 15-minute timer. */
export const ACTIVITY_BROADCAST_EVERY_MS = 5_000;
/**
 * The server's idle window only slides on API calls. A user who reads a page for a long time is
 * still active, so activity pings the server now and then to keep both timers in step.
 */
export const SERVER_KEEPALIVE_EVERY_MS = 5 * 60_000;

/**
 * The session rules of spec section 4 while a user is signed in: the idle timer fed by activity in
 * every tab, sign-out broadcast to the other tabs, a 401 treated as expiry, and the page-close
 * beacon.
 */
export function SessionManager() {
  const { status, expireSession, logout } = useAuth();
  const signedIn = status === 'signed-in';
  const handlers = useRef({ expireSession, logout });
  useEffect(() => {
    handlers.current = { expireSession, logout };
  }, [expireSession, logout]);

  // Messages from other tabs are heard in every state, so a tab never misses a sign-out.
  useEffect(() => {
    if (!signedIn) return;
    const timer = new IdleTimer({
      timeoutMs: IDLE_TIMEOUT_MS,
      onIdle: () => {
        channel.post({ type: 'expired' });
        void handlers.current.expireSession();
      },
    });
    const channel = openSessionChannel((message) => {
      if (message.type === 'activity') timer.activity(Math.min(message.at, Date.now()));
      else if (message.type === 'expired') {
        timer.stop();
        void handlers.current.expireSession({ fromOtherTab: true });
      } else if (message.type === 'logout') {
        timer.stop();
        void handlers.current.logout({ fromOtherTab: true });
      }
    });
    timer.start();

    let lastBroadcast = 0;
    let lastKeepalive = Date.now();
    const onActivity = () => {
      const now = Date.now();
      timer.activity(now);
      if (now - lastBroadcast >= ACTIVITY_BROADCAST_EVERY_MS) {
        lastBroadcast = now;
        channel.post({ type: 'activity', at: now });
      }
      if (now - lastKeepalive >= SERVER_KEEPALIVE_EVERY_MS) {
        lastKeepalive = now;
        // A 401 here ends the session through the listener below, as it should.
        getMe().catch(() => {});
      }
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') timer.check();
    };
    for (const name of ACTIVITY_EVENTS) {
      document.addEventListener(name, onActivity, { capture: true, passive: true });
    }
    document.addEventListener('visibilitychange', onVisible);

    setUnauthorizedListener(() => {
      timer.stop();
      channel.post({ type: 'expired' });
      void handlers.current.expireSession();
    });

    const tabId = crypto.randomUUID();
    registerTab(tabId);
    const heartbeat = setInterval(() => registerTab(tabId), TAB_HEARTBEAT_MS);
    const onPageHide = () => {
      const { othersOpen } = unregisterTab(tabId);
      // Closing the last portal tab ends the session; the beacon is the one request a closing
      // page may still send. A reload re-opens a session from the tab's pool tokens.
      if (!othersOpen) sendLogoutBeacon();
    };
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) registerTab(tabId);
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);

    return () => {
      timer.stop();
      channel.close();
      for (const name of ACTIVITY_EVENTS) {
        document.removeEventListener(name, onActivity, { capture: true });
      }
      document.removeEventListener('visibilitychange', onVisible);
      setUnauthorizedListener(null);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      clearInterval(heartbeat);
      unregisterTab(tabId);
    };
  }, [signedIn]);

  return null;
}

// The Session Ended modal is rarely shown: its code (and MUI's dialog) is fetched once a user is
// signed in, not with the sign-in page.
const loadEndedDialog = () => import('./session-ended-dialog.tsx');
const EndedDialog = lazy(loadEndedDialog);

/** The Session Ended modal: up while the expired flag is set; Leave consumes it. */
export function SessionEndedDialog() {
  const { expired, status } = useAuth();
  // Once shown it stays mounted, so closing it plays the dialog's own exit transition.
  const [needed, setNeeded] = useState(false);
  if (expired && !needed) setNeeded(true);
  useEffect(() => {
    if (status === 'signed-in') loadEndedDialog().catch(() => {});
  }, [status]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <EndedDialog open={expired} />
    </Suspense>
  );
}
