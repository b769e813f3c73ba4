/** The observations module's public face: its routes (observations of any registered kind). */
export { observationsRoutes } from './observations.routes.ts';
export { addManualObservation } from './observations.service.ts';
