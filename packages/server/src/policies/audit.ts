import { isAdmin } from './staff.ts';
import type { Actor } from './actor.ts';

/** The audit log names every user and patient touched: admins only read it. */
export const mayReadAuditLog = (actor: Actor): boolean => isAdmin(actor);
