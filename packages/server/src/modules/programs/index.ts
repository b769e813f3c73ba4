/** The programs module's public face: its routes (care programs and each patient's enrollment). */
export { programsRoutes } from './programs.routes.ts';
export { updatePatientPrograms } from './programs.service.ts';
