import type { ServerResponse } from 'node:http';
import {
  ALERT_STREAM_END_EVENT,
  ALERT_STREAM_EVENT,
  ALERT_STREAM_HEARTBEAT_MS,
  type AlertEvent,
  type AlertStreamEndReason,
} from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertHub } from './alerts.live.ts';

/** The session a stream was opened with, as the stream needs it. */
export interface StreamSession {
  /** Groups the streams of one session (a digest of its id, never the cookie). */
  key: string;
  userId: number;
  /** Milliseconds before the session idles out, or null when it is no longer live; never slides it. */
  timeLeft(): Promise<number | null>;
}

export interface AlertStreams {
  /** Serves one stream on a response whose headers are written; it ends by itself. */
  open(
    res: ServerResponse,
    o: { scope: number | null; session: StreamSession; timeLeftMs: number; maxSeconds: number },
  ): {
    end(): void;
  };
  /** Ends every stream (the server is closing: browsers reconnect to another instance). */
  endAll(): void;
}

interface Stream {
  userId: number;
  check(): Promise<boolean>;
  end(reason?: AlertStreamEndReason): void;
}

/**
 * This instance's open alert streams. A stream belongs to the session that opened it and ends
 * with it:
 * - when any instance ends sessions of its user (logout, global sign-out, password change or
 *   reset, disable, the session limit), a notification makes the stream read its session again
 *   at once (`hub.onSessionEnd`);
 * - before each batch of events is written the session is read again, so an event never goes to
 *   a session found ended;
 * - every `checkEveryMs` as a backstop, for notifications lost while the listening connection
 *   was down. Measured on the test database: the read is a primary-key lookup (0.015 ms in the
 *   server, 0.65 ms per round trip; a five-connection pool answers about 3,500 a second), so a
 *   thousand open streams cost a hundred reads a second at 10 s;
 * - at the session's idle deadline: the stream does not slide the idle window (it is not the
 *   person's activity), so it lasts at most the session's time left, read again at each check
 *   since the person's other requests move it.
 * At most `maxPerSession` streams per session on this instance; the oldest ends when one more
 * opens. The count is per instance: streams of one session on other instances are not seen.
 */
export function createAlertStreams(deps: {
  hub: AlertHub;
  log: FastifyBaseLogger;
  maxPerSession: number;
  checkEveryMs: number;
}): AlertStreams {
  const all = new Set<Stream>();
  const bySession = new Map<string, Stream[]>();

  deps.hub.onSessionEnd((userId) => {
    for (const s of all) if (userId === null || s.userId === userId) void s.check();
  });

  const open: AlertStreams['open'] = (res, o) => {
    const earlier = bySession.get(o.session.key) ?? [];
    while (earlier.length >= deps.maxPerSession) earlier[0]!.end('superseded');
    // Fetched again: ending the last earlier stream drops the session's list.
    const siblings = bySession.get(o.session.key) ?? [];
    bySession.set(o.session.key, siblings);

    const lifetimeEnds = Date.now() + 1000 * o.maxSeconds;
    let closed = false;
    let deadline: NodeJS.Timeout | undefined;
    let pending: AlertEvent[] = [];
    let delivering = false;

    const write = (text: string) => {
      if (!res.writableEnded) res.write(text);
    };

    const end = (reason?: AlertStreamEndReason) => {
      if (closed) return;
      closed = true;
      all.delete(stream);
      const at = siblings.indexOf(stream);
      if (at >= 0) siblings.splice(at, 1);
      if (siblings.length === 0 && bySession.get(o.session.key) === siblings) bySession.delete(o.session.key);
      clearInterval(heartbeat);
      clearInterval(backstop);
      clearTimeout(deadline);
      unsubscribe();
      pending = [];
      if (reason) write(`event: ${ALERT_STREAM_END_EVENT}\ndata: ${JSON.stringify({ reason })}\n\n`);
      if (!res.writableEnded) res.end();
    };

    // Ends at whichever comes first: the lifetime asked for, or the session's idle deadline.
    const schedule = (timeLeftMs: number) => {
      clearTimeout(deadline);
      const untilLifetime = lifetimeEnds - Date.now();
      if (untilLifetime <= timeLeftMs) deadline = setTimeout(() => end(), Math.max(0, untilLifetime));
      // At the idle deadline the session is read again: the person may have been active meanwhile.
      else deadline = setTimeout(() => void check(), timeLeftMs);
    };

    /** Reads the session; ends the stream when it is no longer live. Answers whether it is open. */
    const check = async (): Promise<boolean> => {
      if (closed) return false;
      let timeLeft: number | null;
      try {
        timeLeft = await o.session.timeLeft();
      } catch (err) {
        // Unverifiable is not live: the browser reconnects, through the access check.
        deps.log.warn({ error: (err as Error).message }, 'alert stream could not read its session; ending it');
        end();
        return false;
      }
      if (closed) return false;
      if (timeLeft === null || timeLeft <= 0) {
        end('session');
        return false;
      }
      schedule(timeLeft);
      return true;
    };

    // Events wait for a session read that began after they arrived; one read serves every event
    // that arrived meanwhile, and their order is kept.
    const deliver = async () => {
      if (delivering) return;
      delivering = true;
      try {
        while (pending.length > 0 && !closed) {
          const batch = pending;
          pending = [];
          if (!(await check())) return;
          for (const event of batch) write(`event: ${ALERT_STREAM_EVENT}\ndata: ${JSON.stringify(event)}\n\n`);
        }
      } finally {
        delivering = false;
      }
    };

    const stream: Stream = { userId: o.session.userId, check, end };
    const unsubscribe = deps.hub.subscribe(o.scope, (event) => {
      pending.push(event);
      void deliver();
    });
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), ALERT_STREAM_HEARTBEAT_MS);
    const backstop = setInterval(() => void check(), deps.checkEveryMs);
    all.add(stream);
    siblings.push(stream);
    if (o.timeLeftMs <= 0) end('session');
    else schedule(o.timeLeftMs);
    return { end: () => end() };
  };

  return {
    open,
    endAll() {
      for (const s of [...all]) s.end();
    },
  };
}
