import { isAdmin } from './staff.ts';
import { isAllowedSecretHeader } from '@rpm/contracts';
import type { Actor } from './actor.ts';
import { mayAccessPatient, patientListScope } from './patients.ts';

/** What the portal knows of an ingestion source when deciding what it may do. */
export interface SourcePrincipal {
  id: string;
  kind: 'tenovi' | 'fhir';
  canRead: boolean;
  revoked: boolean;
  /** The one organization the source writes and reads for. */
  organizationId: number;
}

/** A source as stored, before its secret is trusted: what decides whether it may sign in at all. */
export interface StoredSource {
  kind: SourcePrincipal['kind'];
  authHeader: string | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  organizationId: number | null;
}

/** A header a source may send its secret in: the contracts' rule, shared with the admin page. */
export const isSecretHeaderAllowed = isAllowedSecretHeader;

/**
 * Why a source whose secret matched is still refused, or null when it may act: revoked, expired
 * (`expires_at <= now`), made before sources had an organization and not yet given one (it would
 * reach every organization), or sending its secret in a standard header (made before the rule).
 */
export function sourceRefusal(source: StoredSource, now: Date): string | null {
  if (source.revokedAt) return 'source revoked';
  if (source.expiresAt && source.expiresAt.getTime() <= now.getTime()) return 'source expired';
  if (source.organizationId === null) return 'source without organization';
  if (source.kind === 'tenovi' && !isSecretHeaderAllowed(source.authHeader ?? '')) return 'secret header not allowed';
  return null;
}

/** A SMART Backend Services client, as its valid access token presents it. */
export interface SmartClientPrincipal {
  id: string;
  name: string;
  /** The one organization the client reads (and writes) for. */
  organizationId: number;
  /** The token's granted SMART v2 system scopes. */
  scopes: string[];
}

/**
 * Who reads patient data through FHIR: a signed-in staff member or a SMART client with an access
 * token. `source` remains for a static key's principal, which no longer reads (read keys are retired).
 */
export type FhirReader =
  | { kind: 'staff'; actor: Actor }
  | { kind: 'source'; source: SourcePrincipal }
  | { kind: 'client'; client: SmartClientPrincipal };

/** Sources hold keys that write clinical data: only admins create, rotate or revoke them. */
export const mayManageIngestionSources = (actor: Actor): boolean => isAdmin(actor);

/** Unmatched readings are not yet anyone's patient, so no organization can be checked: admins only. */
export const mayReviewUnmatchedReadings = (actor: Actor): boolean => isAdmin(actor);

/** A source sends only to the endpoint of its own kind, and never once revoked. */
export const maySendReadings = (source: SourcePrincipal, endpoint: SourcePrincipal['kind']): boolean =>
  !source.revoked && source.kind === endpoint;

/**
 * A source writes only for the devices and patients of its own organization: a reading whose
 * patient (by device assignment or FHIR subject) is of another organization is refused, never
 * stored there.
 */
export const maySendForOrganization = (source: SourcePrincipal, patientOrganizationId: number): boolean =>
  !source.revoked && source.organizationId === patientOrganizationId;

/**
 * Whether a reader may use FHIR reads at all: staff always (then per patient), a SMART client
 * (then per scope and organization). Static source keys no longer read: SMART Backend Services
 * replaced them (short tokens, signed assertions, scopes).
 */
export const mayReadViaFhir = (reader: FhirReader): boolean => reader.kind === 'staff' || reader.kind === 'client';

/**
 * FHIR reads follow the patient API's rule for staff (admins every organization, a provider
 * only their own); a SMART client reads only its own organization.
 */
export function mayReadPatientViaFhir(reader: FhirReader, patientOrganizationId: number): boolean {
  if (reader.kind === 'client') return reader.client.organizationId === patientOrganizationId;
  if (reader.kind === 'source') return false;
  return mayAccessPatient(reader.actor, { organization_id: patientOrganizationId });
}

/** The organization a reader is limited to in searches; null means every organization (admins). */
export function fhirOrganizationScope(reader: FhirReader): number | null {
  if (reader.kind === 'client') return reader.client.organizationId;
  if (reader.kind === 'source') return reader.source.organizationId;
  return patientListScope(reader.actor);
}

/** SMART clients are registered and revoked by admins, like every key that reaches patient data. */
export const mayManageSmartClients = (actor: Actor): boolean => isAdmin(actor);
