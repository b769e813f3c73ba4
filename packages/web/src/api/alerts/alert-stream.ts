import { ALERT_STREAM_EVENT } from '@rpm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

/**
 * Live alerts: one Server-Sent Events stream per signed-in tab. Each `alert` event (an id and a
 * status, never patient details) refreshes the alert queries on screen, so the worklist and the
 * badge show a new alert within seconds without polling the list. The browser reconnects by
 * itself when the server ends a stream; answers `true` while connected.
 */
export function useAlertStream(enabled: boolean): boolean {
  const client = useQueryClient();
  const userId = useUserScope()[1];
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const scope = ['user', userId] as const;
    const source = new EventSource('/api/alerts/stream', { withCredentials: true });
    let opened = false;
    source.onopen = () => {
      setConnected(true);
      // Changes made while disconnected are picked up on reconnection; the first connection
      // comes with the page, whose alert queries have just been fetched.
      if (opened) void client.invalidateQueries({ queryKey: alertKeys.all(scope) });
      opened = true;
    };
    source.onerror = () => setConnected(false);
    const onAlert = () => void client.invalidateQueries({ queryKey: alertKeys.all(scope) });
    source.addEventListener(ALERT_STREAM_EVENT, onAlert);
    return () => {
      source.removeEventListener(ALERT_STREAM_EVENT, onAlert);
      source.close();
      setConnected(false);
    };
    // A new signed-in user opens a new stream.
  }, [enabled, client, userId]);
  return connected;
}
