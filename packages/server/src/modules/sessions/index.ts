/** The sessions module's public face: opening, resolving and ending portal sessions. */
export {
  createSession,
  endAllSessionsOf,
  endSession,
  endSessionsOfIdentity,
  pruneEndedSessions,
  resolveSession,
  sessionKeyOf,
  sessionTimeLeft,
  type EndReason,
  type OpenSessionResult,
  type SignInClaims,
} from './sessions.service.ts';
/** The notification channel on which an ended session is announced (live streams close on it). */
export { SESSION_END_CHANNEL } from './sessions.repository.ts';
