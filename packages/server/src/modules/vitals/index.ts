export { vitalsRoutes } from './vitals.routes.ts';
