import type { Actor } from '../plugins/context.ts';
import { mayAccessPatient, patientListScope } from './patients.ts';

/** What the portal knows of an ingestion source when deciding what it may do. */
export interface SourcePrincipal {
  id: string;
  kind: 'tenovi' | 'fhir';
  canRead: boolean;
  revoked: boolean;
}

/** Who reads patient data through FHIR: a signed-in staff member or an EHR with a read key. */
export type FhirReader = { kind: 'staff'; actor: Actor } | { kind: 'source'; source: SourcePrincipal };

/** Sources hold keys that write clinical data: only admins create, rotate or revoke them. */
export const mayManageIngestionSources = (actor: Actor): boolean => actor.role === 'admin';

/** Unmatched readings are not yet anyone's patient, so no organization can be checked: admins only. */
export const mayReviewUnmatchedReadings = (actor: Actor): boolean => actor.role === 'admin';

/** A source sends only to the endpoint of its own kind, and never once revoked. */
export const maySendReadings = (source: SourcePrincipal, endpoint: SourcePrincipal['kind']): boolean =>
  !source.revoked && source.kind === endpoint;

/**
 * FHIR reads follow the patient API's rule for staff (admins every organization, a provider
 * only their own); a FHIR source reads only with a read key and is not tied to an organization.
 */
export function mayReadPatientViaFhir(reader: FhirReader, patientOrganizationId: number): boolean {
  if (reader.kind === 'source') return !reader.source.revoked && reader.source.kind === 'fhir' && reader.source.canRead;
  return mayAccessPatient(reader.actor, { organization_id: patientOrganizationId });
}

/** The organization a staff reader is limited to in searches; null means every organization. */
export function fhirOrganizationScope(reader: FhirReader): number | null {
  return reader.kind === 'source' ? null : patientListScope(reader.actor);
}
