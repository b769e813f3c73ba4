import { LOGOUT_BEACON_PATH } from '@rpm/contracts';
import { defineCall } from '../client.ts';

export const logoutCall = defineCall('POST', '/api/logout', false);

/**
 * Ends the portal session on the server; a failure (already gone, offline) changes nothing here.
 * Sent without the common client: the route needs no CSRF header, and a refusal must not start
 * the 401 handling of a session that is ending anyway.
 */
export async function endServerSession(): Promise<void> {
  try {
    await fetch(logoutCall.path, { method: logoutCall.method, credentials: 'same-origin' });
  } catch {
    /* offline: the server's idle timeout ends it */
  }
}

/**
 * The page-close beacon: ends the portal session but keeps the tab's sign-in, so that a reload
 * opens a new session from it. A beacon is the one request a closing page still sends.
 */
export function sendLogoutBeacon(): void {
  navigator.sendBeacon?.(LOGOUT_BEACON_PATH);
}
