import { isAdmin } from './staff.ts';
import type { Actor } from './actor.ts';

/** The inspector shows rows of every table, across organizations: admins only. */
export const mayInspectDatabase = (actor: Actor): boolean => isAdmin(actor);
