export { devicesRoutes } from './devices.routes.ts';
