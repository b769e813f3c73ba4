export { patientsRoutes } from './patients.routes.ts';
