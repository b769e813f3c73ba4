/**
 * What a FHIR interaction needs, in SMART v2 scope terms (`system/Observation.rs`): the resource
 * type and one of the interaction letters c (create), r (read), u (update), d (delete), s (search).
 * Every FHIR route names its need; a SMART client is allowed only what its granted scopes cover.
 */
export type FhirResourceType = 'Patient' | 'Observation' | 'Device' | 'DiagnosticReport' | 'Group';
export type FhirInteraction = 'c' | 'r' | 'u' | 'd' | 's';
export interface FhirScopeNeed {
  resourceType: FhirResourceType;
  interaction: FhirInteraction;
}

import type { FhirReader } from './ingestion.ts';

/**
 * Whether a reader's grant covers a further need (a bulk export checks each exported type).
 * Staff follow the portal's own rules per patient instead of scopes.
 * TODO(issue 27, SMART): a client's scopes decide.
 */
export function readerHasScope(reader: FhirReader, _need: FhirScopeNeed): boolean {
  return reader.kind === 'staff' || reader.kind === 'source';
}
