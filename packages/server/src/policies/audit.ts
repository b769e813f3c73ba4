import type { Actor } from '../plugins/context.ts';

/** The audit log names every user and patient touched: admins only read it. */
export const mayReadAuditLog = (actor: Actor): boolean => actor.role === 'admin';
