import type { Role } from '@rpm/contracts';
import type { SessionUserRow } from './sessions.repository.ts';
import { actorOf, type Actor } from '../../policies/actor.ts';

/** The user behind a live session, as access checks and audit records see them. */
export const presentActor = (row: SessionUserRow): Actor =>
  actorOf({
  id: row.id,
  email: row.email,
  // The table's CHECK constraint holds the role to the contract's values.
  role: row.role as Role,
  organizationId: row.organization_id,
  cognitoUsername: row.cognito_username,
  });
