import type { Actor } from '../plugins/context.ts';

/** The inspector shows rows of every table, across organizations: admins only. */
export const mayInspectDatabase = (actor: Actor): boolean => actor.role === 'admin';
