import type { AlertEvent } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { streamHearsAlert } from '../../policies/alerts.ts';
import { SESSION_END_CHANNEL } from '../sessions/sessions.service.ts';
import { ALERT_CHANNEL, type AlertChange } from './alerts.repository.ts';

type Listener = (event: AlertEvent) => void;
/** A user whose sessions ended, or null: notifications may have been missed, check every stream. */
type SessionEndListener = (userId: number | null) => void;

export interface AlertHub {
  /** Hears the alerts of one organization (null: all, for admins) until the returned call. */
  subscribe(scope: number | null, listener: Listener): () => void;
  /** Hears that sessions ended, on any instance, until the returned call. */
  onSessionEnd(listener: SessionEndListener): () => void;
  /** Resolves once the instance listens (tests wait for it before storing a reading). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const RECONNECT_MS = 1_000;

/**
 * One LISTEN connection per instance: every commit that changes an alert NOTIFYs, on whichever
 * instance it happened, and each instance passes the change on to its own Server-Sent Event
 * streams whose user may see it. `onChanges` runs once per notification on every instance. The
 * same connection hears sessions end, so that streams close on every instance, not only on the
 * one that answered the logout.
 */
export function startAlertHub(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  onChanges?: (changes: AlertChange[]) => Promise<void>;
}): AlertHub {
  const listeners = new Set<{ scope: number | null; listener: Listener }>();
  const sessionListeners = new Set<SessionEndListener>();
  let connectedOnce = false;
  let client: pg.Client | null = null;
  let closed = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const dispatch = (payload: string | undefined) => {
    let changes: AlertChange[];
    try {
      changes = JSON.parse(payload ?? '[]') as AlertChange[];
    } catch {
      return;
    }
    for (const c of changes) {
      const event: AlertEvent = { id: c.id, patient_id: c.patient_id, severity: c.severity, status: c.status };
      for (const l of listeners) if (streamHearsAlert(l.scope, c)) l.listener(event);
    }
    deps
      .onChanges?.(changes)
      .catch((err: Error) => deps.log.error({ error: err.message }, 'alert change handling failed'));
  };

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client(deps.pool.options);
    client = c;
    const retry = () => {
      if (client !== c || closed) return;
      client = null;
      c.end().catch(() => {});
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    c.on('error', (err) => {
      deps.log.warn({ error: err.message }, 'alert listener lost its connection; reconnecting');
      retry();
    });
    c.on('end', retry);
    c.on('notification', (n) => {
      if (n.channel === ALERT_CHANNEL) dispatch(n.payload);
      else if (n.channel === SESSION_END_CHANNEL) {
        const userId = Number(n.payload);
        if (Number.isInteger(userId)) for (const l of sessionListeners) l(userId);
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ALERT_CHANNEL}; LISTEN ${SESSION_END_CHANNEL}`);
      // Sessions may have ended while the connection was down: every stream checks its own.
      if (connectedOnce) for (const l of sessionListeners) l(null);
      connectedOnce = true;
      markReady();
    } catch (err) {
      deps.log.warn({ error: (err as Error).message }, 'alert listener could not connect; retrying');
      retry();
    }
  };
  void connect();

  return {
    ready,
    subscribe(scope, listener) {
      const entry = { scope, listener };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    onSessionEnd(listener) {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      sessionListeners.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
