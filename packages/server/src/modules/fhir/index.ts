export { fhirRoutes, type FhirDeps } from './fhir.routes.ts';
// What another module's FHIR interaction (the Bulk Data export) needs: the caller check, its errors.
export { FhirError, notFound, reader, sourceDetails, sourceNamedBy } from './fhir.auth.ts';
export { operationOutcome } from './fhir.presenter.ts';
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
