/** The health module's public face: its routes and the database check start-up waits on. */
export { healthRoutes } from './health.routes.ts';
export { checkDatabase } from './health.service.ts';
