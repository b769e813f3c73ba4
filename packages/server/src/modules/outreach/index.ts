export { outreachRoutes } from './outreach.routes.ts';
export { recordOutreach } from './outreach.service.ts';
