/** The audit module's public face: the audit log's routes and the sealer of its keyed chain. */
export { auditRoutes } from './audit.routes.ts';
export { startSealer, type Sealer } from './sealer.ts';
