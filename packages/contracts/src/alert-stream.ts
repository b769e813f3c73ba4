import { Type, type Static } from 'typebox';

/*
 * The alerts stream's constants, apart from the alert schemas (alerts.ts): the app shell opens the
 * stream on every page, and these are all it needs of the alerts at first load.
 */
export const ALERT_STREAM_EVENT = 'alert';
/** Comment lines on an idle stream, so proxies and browsers keep it open. */
export const ALERT_STREAM_HEARTBEAT_MS = 20_000;
/** How long one stream lasts unless asked otherwise; the browser then reconnects. */
export const ALERT_STREAM_DEFAULT_SECONDS = 300;
/** The longest a client may ask for (`max_seconds`); the session's idle deadline ends it sooner. */
export const ALERT_STREAM_MAX_SECONDS = 3600;
/**
 * Open streams per session (per instance): a few tabs of one browser share a session. Opening
 * one more ends the oldest, with an `end` event whose reason is `superseded`.
 */
export const MAX_ALERT_STREAMS_PER_SESSION = 4;
/**
 * How often an open stream reads its session row again. Ending a session notifies every instance
 * at once and each event is checked before it is written; this backstop bounds how long a stream
 * stays open when a notification is lost (the listening connection was down).
 */
export const ALERT_STREAM_SESSION_CHECK_MS = 10_000;
/**
 * The server's last event on a stream it ends for a reason the browser should not simply retry:
 * `session` (the session ended, or reached its idle deadline: sign-in is needed) or `superseded`
 * (the session opened too many streams: this tab stays without live updates until shown again).
 */
export const ALERT_STREAM_END_EVENT = 'end';
/** After the browser gave up on a stream (or the session was found live after all), it opens a new one this much later. */
export const ALERT_STREAM_REOPEN_MS = 5_000;
export const AlertStreamEndReason = Type.Union([Type.Literal('session'), Type.Literal('superseded')]);
export type AlertStreamEndReason = Static<typeof AlertStreamEndReason>;
