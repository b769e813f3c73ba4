import {
  ALERT_STREAM_END_EVENT,
  ALERT_STREAM_REOPEN_MS,
  Labels,
  SessionTexts,
  type AlertStreamEndReason,
} from '@rpm/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, runPortalTestServer, signInForTest, testPortal } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

/**
 * The browser's EventSource, as far as the app uses it: jsdom has none. The server's side of the
 * stream (ending it with its session) is tested over real HTTP in the server's alerts tests.
 */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** The server ends the stream with its last event; the browser would retry unless closed. */
  serverEnds(reason: AlertStreamEndReason) {
    this.dispatchEvent(new MessageEvent(ALERT_STREAM_END_EVENT, { data: JSON.stringify({ reason }) }));
  }
}

const live = () => FakeEventSource.opened.filter((s) => s.readyState !== FakeEventSource.CLOSED);

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

async function signedInApp() {
  signInForTest(makeUser());
  renderApp('/');
  await screen.findByRole('heading', { name: Labels.dashboard });
  await waitFor(() => expect(live()).toHaveLength(1));
  return live()[0]!;
}

describe('the alerts stream when the server ends it', () => {
  it('ended with the session: asks /api/me once, and its 401 is the inactivity sign-out', async () => {
    const stream = await signedInApp();
    testPortal.user = null;
    const asked = testPortal.calls.filter((c) => c === 'GET /api/me').length;
    act(() => stream.serverEnds('session'));
    expect(await screen.findByRole('dialog', { name: SessionTexts.endedTitle })).toBeInTheDocument();
    expect(testPortal.calls.filter((c) => c === 'GET /api/me').length).toBe(asked + 1);
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
    expect(live()).toHaveLength(0);
  });

  it('ended at the idle deadline of a session that is live after all: a new stream, a little later', async () => {
    const stream = await signedInApp();
    // The clock still runs (the fake API answers through it); the test moves it on past the delay.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    act(() => stream.serverEnds('session'));
    await waitFor(() => expect(testPortal.calls.at(-1)).toBe('GET /api/me'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ALERT_STREAM_REOPEN_MS / 2);
    });
    expect(live()).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ALERT_STREAM_REOPEN_MS);
    });
    expect(live()).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: SessionTexts.endedTitle })).not.toBeInTheDocument();
  });

  it('pushed out by newer tabs of the session: waits until the tab is seen again', async () => {
    const stream = await signedInApp();
    act(() => stream.serverEnds('superseded'));
    expect(live()).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(live()).toHaveLength(0);
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(live()).toHaveLength(1);
  });
});
