export { rolesRoutes } from './roles.routes.ts';
export { roleExists } from './roles.service.ts';
