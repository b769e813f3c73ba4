import type { Role } from '@rpm/contracts';
import { ORGANIZATION, ROLE } from './actor-fields.ts';

/**
 * The signed-in staff member behind a request, as loaded from their server-side session.
 *
 * Opaque on purpose: the role and organization are kept under symbols that only `policies/` can
 * name (`actor-fields.ts`, which the lint rules keep private to this folder). Code elsewhere cannot
 * compare an actor's role or organization in any spelling; it asks a policy instead.
 */
export interface Actor {
  readonly id: number;
  readonly email: string;
  readonly cognitoUsername: string | null;
  readonly [ROLE]: Role;
  readonly [ORGANIZATION]: number | null;
}

/** What a session or a test knows about a staff member; the one way to make an `Actor`. */
export interface ActorFields {
  id: number;
  email: string;
  role: Role;
  organizationId: number | null;
  cognitoUsername: string | null;
}

export function actorOf(fields: ActorFields): Actor {
  return {
    id: fields.id,
    email: fields.email,
    cognitoUsername: fields.cognitoUsername,
    [ROLE]: fields.role,
    [ORGANIZATION]: fields.organizationId,
  };
}

/**
 * Who may call a route. Every /api and /fhir route must declare one (checked at start-up).
 * `machine`: called by device clouds and EHRs with a source secret, not a browser session; the
 * hook neither requires a session nor the CSRF header, and the service authenticates the caller
 * (a session cookie, if sent, is still resolved so FHIR reads work for signed-in staff).
 */
export type Access = 'public' | 'signed-in' | 'admin' | 'machine';
