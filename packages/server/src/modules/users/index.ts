export { usersRoutes } from './users.routes.ts';
export { createUser, getUsers } from './users.service.ts';
