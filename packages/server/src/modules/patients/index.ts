export { patientsRoutes } from './patients.routes.ts';
export { patientIdByMrn } from './patients.service.ts';
export { createPatient, listPatientsFor } from './patients.service.ts';
