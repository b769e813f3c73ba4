export { dbInspectorRoutes } from './db-inspector.routes.ts';
