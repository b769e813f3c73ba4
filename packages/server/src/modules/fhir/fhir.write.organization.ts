// Where a FHIR write's entries may go: the source's own organization, and a month still open for billing.
import { BillingErrors, IngestionErrors, type AuditAction } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { maySendForOrganization } from '../../policies/ingestion.ts';
import { readingsInClosedMonths } from '../billing/index.ts';
import { organizationsOfDevices, ReadingRejected, type AuthenticatedSource } from '../ingestion/index.ts';
import type { ParsedObservation } from './fhir-observation.ts';
import { attributedPatients, patientOrganizations } from './fhir.repository.ts';
import { OtherOrganization, type Checked } from './fhir.write.checks.ts';
/**
 * Refuses, in place, each accepted entry that would go to a patient in a month closed for
 * billing (409 per entry): the database refuses such a reading anyway, and would then fail the
 * whole request instead of the one entry.
 */
export async function keepOutOfClosedMonths(db: Queryable, checked: Checked[]): Promise<void> {
  const accepted = checked.flatMap((c, i) => (c.ok ? [{ i, reading: c.parsed.reading }] : []));
  if (accepted.length === 0) return;
  const owners = await attributedPatients(
    db,
    accepted.map(({ reading }) => ({ device: reading.deviceIdentifier, at: reading.measuredAt })),
  );
  const owned = accepted.flatMap(({ i, reading }, k) =>
    owners[k] != null ? [{ i, reading, patientId: owners[k] }] : [],
  );
  const closed = await readingsInClosedMonths(
    db,
    owned.map(({ patientId, reading }) => ({ patientId, at: reading.measuredAt.toISOString() })),
  );
  owned.forEach(({ i, reading }, k) => {
    if (closed[k])
      checked[i] = { ok: false, error: new ReadingRejected(BillingErrors.monthClosed, reading.deviceIdentifier, 409) };
  });
}

/**
 * Refuses, in place, each accepted entry whose device (at its time) or subject belongs to a patient
 * of another organization than the source's: nothing is stored for it, not even as a lone pulse,
 * and the call gets one `denied` record naming the source and the entries.
 */
export async function keepToOrganization(
  db: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  checked: Checked[],
  at: (i: number) => string,
): Promise<void> {
  const accepted = checked.flatMap((c, i) => (c.ok ? [{ i, parsed: c.parsed }] : []));
  const reading = (p: ParsedObservation) => p.reading;
  const deviceOrgs = await organizationsOfDevices(
    db,
    accepted.map(({ parsed }) => ({ device: reading(parsed).deviceIdentifier, at: reading(parsed).measuredAt })),
  );
  const subjectOrgs = await patientOrganizations(
    db,
    accepted.flatMap(({ parsed }) => (parsed.subjectPatientId !== null ? [parsed.subjectPatientId] : [])),
  );
  const refused: number[] = [];
  accepted.forEach(({ i, parsed }, k) => {
    const subjectOrg = parsed.subjectPatientId !== null ? subjectOrgs.get(parsed.subjectPatientId) : undefined;
    const outside = [deviceOrgs[k] ?? null, subjectOrg ?? null].some(
      (org) => org !== null && !maySendForOrganization(source, org),
    );
    if (!outside) return;
    checked[i] = {
      ok: false,
      error: new OtherOrganization(`${at(i)}${IngestionErrors.otherOrganization}`, reading(parsed).deviceIdentifier),
    };
    refused.push(i);
  });
  if (refused.length === 0) return;
  await audit(db, ctx, {
    action,
    outcome: 'denied',
    resourceType: 'ingestion_source',
    resourceId: source.id,
    reason: 'patient of another organization',
    details: { organization_id: source.organizationId, entries: refused },
  });
}
