import type { Role } from '@rpm/contracts';
import { actorOf as makeActor, type Actor } from '../../src/policies/actor.ts';

let nextId = 1000;

/** An actor for pure policy tests (no database): `organizationId` null for none, 1 when not given. */
export function actorOf(role: Role, organizationId: number | null = 1, id = nextId++): Actor {
  return makeActor({ id, email: `${role}-${id}@example.com`, role, organizationId, cognitoUsername: null });
}
