import type { Role } from '@rpm/contracts';
import type { Actor } from '../../src/plugins/context.ts';

let nextId = 1000;

/** An actor for pure policy tests (no database): `organizationId` null for none, 1 when not given. */
export function actorOf(role: Role, organizationId: number | null = 1, id = nextId++): Actor {
  return { id, email: `${role}-${id}@example.com`, role, organizationId, cognitoUsername: null };
}
