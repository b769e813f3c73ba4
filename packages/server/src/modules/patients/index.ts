export { patientsRoutes } from './patients.routes.ts';
export { patientIdByMrn } from './patients.service.ts';
