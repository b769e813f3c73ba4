export { usersRoutes } from './users.routes.ts';
