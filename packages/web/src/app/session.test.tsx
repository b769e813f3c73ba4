import {
  ACTIVITY_EVENTS,
  AuthLabels,
  IDLE_TIMEOUT_MS,
  Labels,
  LOGOUT_BEACON_PATH,
  SESSION_BROADCAST_CHANNEL,
  SESSION_EXPIRED_FLAG_KEY,
  SessionTexts,
} from '@rpm/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { getMe } from '../api/me/get-me.ts';
import { makeUser, runPortalTestServer, server, signInForTest, testPortal } from '../lib/testing/portal-test-server.ts';
import { renderApp } from '../lib/testing/render-app.tsx';

runPortalTestServer();

/** Signs in, renders the dashboard, and hands the interval timer and clock to the test. */
async function signedInApp() {
  // Only the interval and the clock are faked: promises, fetch and React keep running for real,
  // and advancing the clock runs the idle checks at once.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  signInForTest(makeUser());
  const app = renderApp('/');
  await screen.findByRole('heading', { name: Labels.dashboard });
  return app;
}

describe('session rules', () => {
  it('signs out after IDLE_TIMEOUT_MS without activity, ends the server session and shows Session Ended', async () => {
    await signedInApp();
    await act(async () => {
      vi.advanceTimersByTime(IDLE_TIMEOUT_MS + 2000);
    });
    const dialog = await screen.findByRole('dialog', { name: SessionTexts.endedTitle });
    expect(dialog).toHaveTextContent(SessionTexts.endedBody);
    expect(sessionStorage.getItem(SESSION_EXPIRED_FLAG_KEY)).toBe('1');
    await waitFor(() => expect(testPortal.calls).toContain('POST /api/logout'));
    // The page behind the modal no longer shows the signed-in frame.
    expect(screen.queryByRole('navigation', { name: AuthLabels.mainNavigation })).not.toBeInTheDocument();
  });

  it.each(ACTIVITY_EVENTS)('keeps the session while there is activity (%s)', async (eventName) => {
    await signedInApp();
    for (let i = 0; i < 3; i++) {
      await act(async () => {
        vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
      });
      document.dispatchEvent(new Event(eventName, { bubbles: true }));
    }
    expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument();
    expect(testPortal.calls).not.toContain('POST /api/logout');
    await act(async () => {
      vi.advanceTimersByTime(IDLE_TIMEOUT_MS + 2000);
    });
    expect(await screen.findByRole('dialog', { name: SessionTexts.endedTitle })).toBeInTheDocument();
  });

  it('tells the other tabs when the session expires, and takes their activity as its own', async () => {
    await signedInApp();
    const otherTab = new BroadcastChannel(SESSION_BROADCAST_CHANNEL);
    const heard: unknown[] = [];
    otherTab.onmessage = (e) => heard.push(e.data);
    try {
      await act(async () => {
        vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
      });
      otherTab.postMessage({ type: 'activity', at: Date.now() });
      await act(async () => {
        await new Promise((r) => setTimeout(r, 50));
        vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
      });
      expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument();
      await act(async () => {
        vi.advanceTimersByTime(60_000 + 2000);
      });
      expect(await screen.findByRole('dialog', { name: SessionTexts.endedTitle })).toBeInTheDocument();
      await waitFor(() => expect(heard).toContainEqual({ type: 'expired' }));
    } finally {
      otherTab.close();
    }
  });

  it('ends the session when another tab says it expired', async () => {
    await signedInApp();
    const otherTab = new BroadcastChannel(SESSION_BROADCAST_CHANNEL);
    try {
      otherTab.postMessage({ type: 'expired' });
      expect(await screen.findByRole('dialog', { name: SessionTexts.endedTitle })).toBeInTheDocument();
    } finally {
      otherTab.close();
    }
  });

  it('follows a manual logout in another tab to /login, without the Session Ended modal', async () => {
    const { router } = await signedInApp();
    const otherTab = new BroadcastChannel(SESSION_BROADCAST_CHANNEL);
    try {
      otherTab.postMessage({ type: 'logout' });
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument();
    } finally {
      otherTab.close();
    }
  });

  it('treats a 401 from the API as the end of the session', async () => {
    await signedInApp();
    server.use(http.get('/api/me', () => HttpResponse.json({ message: 'Session expired' }, { status: 401 })));
    await expect(getMe()).rejects.toThrow();
    expect(await screen.findByRole('dialog', { name: SessionTexts.endedTitle })).toBeInTheDocument();
    expect(sessionStorage.getItem(SESSION_EXPIRED_FLAG_KEY)).toBe('1');
  });

  it('keeps the modal across a reload until Leave consumes the flag and goes to /login', async () => {
    sessionStorage.setItem(SESSION_EXPIRED_FLAG_KEY, '1');
    const { router } = renderApp('/profile');
    const leave = await screen.findByRole('button', { name: SessionTexts.leave });
    fireEvent.click(leave);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStorage.getItem(SESSION_EXPIRED_FLAG_KEY)).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument(),
    );
  });

  it('sends the sign-out beacon when the last portal tab closes', async () => {
    await signedInApp();
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    window.dispatchEvent(new Event('pagehide'));
    // The beacon ends the session but keeps the tab's sign-in, which a reload opens a new one from.
    expect(beacon).toHaveBeenCalledWith('/api/logout?page_closed=1');
    expect(beacon).toHaveBeenCalledWith(LOGOUT_BEACON_PATH);
  });

  it('goes to /login after a manual logout and ends the server session', async () => {
    const { router } = await signedInApp();
    fireEvent.click(screen.getByRole('button', { name: AuthLabels.accountMenu }));
    fireEvent.click(await screen.findByRole('menuitem', { name: Labels.logout }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(testPortal.calls).toContain('POST /api/logout'));
    expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument();
  });
});
