export { fhirRoutes } from './fhir.routes.ts';
// Resources as R4 JSON, one row at a time (the bulk export writes them as NDJSON lines).
export {
  presentDevice,
  presentObservation,
  presentPatient,
  type FhirDeviceRow,
  type ObservationRow,
  type PatientRow,
} from './fhir.presenter.ts';
export { observationIdentifiers } from './fhir.read.service.ts';
