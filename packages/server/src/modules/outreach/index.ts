export { outreachRoutes } from './outreach.routes.ts';
