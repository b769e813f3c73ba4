import { createIdentity, type Identity, type IdentityDeps } from './modules/identity/index.ts';
import { endSessionsOfIdentity } from './modules/sessions/index.ts';

/**
 * The user pool as the portal runs it: when the pool ends a person's sign-ins, their portal
 * sessions end too. Wired here, at composition, because identity sits beside the modules and
 * imports none of them.
 */
export function createPortalIdentity(deps: Omit<IdentityDeps, 'endPortalSessions'>): Promise<Identity> {
  return createIdentity({ ...deps, endPortalSessions: endSessionsOfIdentity });
}
