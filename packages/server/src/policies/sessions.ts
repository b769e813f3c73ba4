/**
 * Only an active portal user opens a session. A disabled user's live sessions end when they are
 * disabled, and the session lookup (sessions.repository.ts) refuses any that remain.
 */
export const mayOpenSession = (user: { status: string }): boolean => user.status === 'active';
