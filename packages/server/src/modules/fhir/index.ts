export { fhirRoutes } from './fhir.routes.ts';
