export { tokenRoutes } from './token.routes.ts';
