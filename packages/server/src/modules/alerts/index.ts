/** The alerts module's public face: its routes, jobs, live stream and the evaluation of new readings. */
export { alertsRoutes } from './alerts.routes.ts';
export { evaluateStoredReadings } from './alerts.evaluate.ts';
export type { StoredReading } from './alerts.repository.ts';
export { closeAlertsForEnrollmentEnd, reevaluatePatients } from './alerts.reevaluate.ts';
export { requestReevaluation } from './alerts.reevaluation.ts';
