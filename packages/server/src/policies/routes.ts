import { isAdmin } from './staff.ts';
import type { Access, Actor } from './actor.ts';

/**
 * The route-level rule the access hook applies before anything else: public and machine routes
 * are open to the hook (machine callers are authenticated by their service), signed-in routes to
 * any signed-in staff member, admin routes to admins only.
 */
export function mayCallRoute(actor: Actor | null, access: Access): boolean {
  switch (access) {
    case 'public':
    case 'machine':
      return true;
    case 'signed-in':
      return actor !== null;
    case 'admin':
      return actor !== null && isAdmin(actor);
  }
}
