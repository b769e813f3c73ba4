/**
 * The ingestion module's public face: its routes and jobs, and what FHIR's Observation intake
 * shares with the webhooks (the same reading rules, source authentication and audited storage).
 */
export { ingestionRoutes } from './ingestion.routes.ts';
export {
  authenticateSource,
  organizationsOfDevices,
  recordRejections,
  refuseSource,
  sourcePrincipalOf,
  rejectReading,
  storeAudited,
  type AuthenticatedSource,
} from './ingest.service.ts';
export { bloodPressure, measuredTime, measurementKey, pulseRate, ReadingRejected } from './reading-rules.ts';
export type { IncomingReading, ReadingOutcome } from './readings.repository.ts';
export { sourceIdOfSecret } from './source-secret.ts';
export { createClientWriteSource, revokeClientWriteSource } from './ingestion-sources.service.ts';
