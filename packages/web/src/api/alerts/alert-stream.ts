import {
  ALERT_STREAM_END_EVENT,
  ALERT_STREAM_EVENT,
  ALERT_STREAM_REOPEN_MS,
  type AlertStreamEndReason,
} from '@rpm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getMe } from '../me/get-me.ts';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

/**
 * Live alerts: one Server-Sent Events stream per signed-in tab. Each `alert` event (an id and a
 * status, never patient details) refreshes the alert queries on screen, so the worklist and the
 * badge show a new alert within seconds without polling the list. Answers `true` while connected.
 *
 * When the server simply ends a stream (its lifetime, a restart) the browser reconnects by itself.
 * When it ends one because the session ended or reached its idle deadline (`end`, reason
 * `session`), or the browser gave up on a stream (an answer that is not one, such as a 401), the
 * tab asks /api/me instead of retrying: a 401 there is the app's inactivity sign-out, and a live
 * session gets a new stream a little later. A stream the session's newer tabs pushed out
 * (`superseded`) waits until this tab is shown or focused again, so tabs do not take turns.
 */
export function useAlertStream(enabled: boolean): boolean {
  const client = useQueryClient();
  const userId = useUserScope()[1];
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const scope = ['user', userId] as const;
    let source: EventSource | null = null;
    let opened = false;
    let stopped = false;
    let waitingToBeSeen = false;
    let reopen: ReturnType<typeof setTimeout> | undefined;

    const refresh = () => void client.invalidateQueries({ queryKey: alertKeys.all(scope) });
    const close = () => {
      source?.close();
      source = null;
      setConnected(false);
    };
    const open = () => {
      if (stopped || source) return;
      const s = new EventSource('/api/alerts/stream', { withCredentials: true });
      source = s;
      s.onopen = () => {
        setConnected(true);
        // Changes made while disconnected are picked up on reconnection; the first connection
        // comes with the page, whose alert queries have just been fetched.
        if (opened) refresh();
        opened = true;
      };
      s.onerror = () => {
        setConnected(false);
        // CONNECTING: the browser retries by itself. CLOSED: it gave up.
        if (s.readyState === EventSource.CLOSED) void checkSession();
      };
      s.addEventListener(ALERT_STREAM_EVENT, refresh);
      s.addEventListener(ALERT_STREAM_END_EVENT, (e) => {
        const reason = parseReason((e as MessageEvent<unknown>).data);
        if (reason === 'superseded') {
          close();
          waitingToBeSeen = true;
        } else void checkSession();
      });
    };
    const checkSession = async () => {
      close();
      clearTimeout(reopen);
      // A 401 signs out through the API client's listener, which ends this effect.
      await getMe().catch(() => {});
      if (!stopped) reopen = setTimeout(open, ALERT_STREAM_REOPEN_MS);
    };
    const onSeen = () => {
      if (!waitingToBeSeen || document.visibilityState !== 'visible') return;
      waitingToBeSeen = false;
      open();
    };

    open();
    document.addEventListener('visibilitychange', onSeen);
    window.addEventListener('focus', onSeen);
    return () => {
      stopped = true;
      clearTimeout(reopen);
      document.removeEventListener('visibilitychange', onSeen);
      window.removeEventListener('focus', onSeen);
      close();
    };
    // A new signed-in user opens a new stream.
  }, [enabled, client, userId]);
  return connected;
}

function parseReason(data: unknown): AlertStreamEndReason | null {
  try {
    const reason = (JSON.parse(String(data)) as { reason?: unknown }).reason;
    return reason === 'session' || reason === 'superseded' ? reason : null;
  } catch {
    return null;
  }
}
