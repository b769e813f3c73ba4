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
