import { organizationOf } from './actor-fields.ts';
import { mayReadPatientViaFhir, type FhirReader } from './ingestion.ts';
import { isAdmin } from './staff.ts';

/** Who asked for an export, as stored with it: only they (or an administrator) follow it. */
export interface ExportRequester {
  kind: 'staff' | 'source' | 'client';
  id: string;
}

export function requesterOf(reader: FhirReader): ExportRequester {
  switch (reader.kind) {
    case 'staff':
      return { kind: 'staff', id: String(reader.actor.id) };
    case 'client':
      return { kind: 'client', id: reader.client.id };
    default:
      return { kind: 'source', id: reader.source.id };
  }
}

/**
 * A group (an organization's program, a provider's panel) is exported by readers who may read
 * that organization's patients: a source of that organization, its providers, administrators.
 */
export const mayExportGroupOf = (reader: FhirReader, organizationId: number): boolean =>
  mayReadPatientViaFhir(reader, organizationId);

/**
 * The organization a `Patient/$export` covers: the reader's own. An administrator reaches every
 * organization, so "every patient" would be the whole portal: they name a group instead (null).
 */
export function patientExportOrganization(reader: FhirReader): number | null {
  if (reader.kind === 'source')
    return mayReadPatientViaFhir(reader, reader.source.organizationId) ? reader.source.organizationId : null;
  if (reader.kind === 'client') return reader.client.organizationId;
  if (isAdmin(reader.actor)) return null;
  return organizationOf(reader.actor);
}

/** An export's status and files are for whoever asked for it, and for administrators. */
export function mayFollowExport(reader: FhirReader, exported: ExportRequester): boolean {
  if (reader.kind === 'staff' && isAdmin(reader.actor)) return true;
  const me = requesterOf(reader);
  return me.kind === exported.kind && me.id === exported.id;
}
