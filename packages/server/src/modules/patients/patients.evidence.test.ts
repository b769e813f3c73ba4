import { PatientErrors, type PatientUpdate } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf, refusalOf as refusalAs } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { createPatient, readPatient, savePatient } from './patients.service.ts';

/** The fields an auditor asks for: ordering provider, consent date, ICD-10-CM diagnosis codes. */
const db = serviceDatabase();
let orgA: number;
let provider: Actor;
let orderer: Actor;
let foreign: Actor;

beforeAll(async () => {
  orgA = (await buildOrganization(db.pool)).id;
  const orgB = (await buildOrganization(db.pool)).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: orgA });
  orderer = await buildStaff(db.pool, 'provider', { organizationId: orgA, firstName: 'Omar', lastName: 'Reed', title: 'MD' });
  foreign = await buildStaff(db.pool, 'provider', { organizationId: orgB });
});

const deps = () => ({ db: db.pool });
const fields = (o: Partial<PatientUpdate> = {}): PatientUpdate => ({
  first_name: 'Eve',
  middle_name: null,
  last_name: 'Dence',
  date_of_birth: null,
  gender: null,
  organization_id: orgA,
  primary_provider_id: null,
  enrolled_rpm: true,
  enrollment_status: 'Active',
  ...o,
});
const refusalOf = (call: Parameters<typeof refusalAs>[2]) => refusalAs(db.pool, provider, call);

describe('evidence fields of a patient', () => {
  it('stores them normalized and names the ordering provider', async () => {
    const p = await createPatient(deps(), contextOf(provider), {
      ...fields(),
      ordering_provider_id: orderer.id,
      consent_date: '2026-01-15',
      diagnosis_codes: [' i10 ', 'e11.9', 'I10', '', 'i50. 22'],
    });
    expect(p).toMatchObject({
      ordering_provider_id: orderer.id,
      ordering_provider_name: 'Omar Reed, MD',
      consent_date: '2026-01-15',
      diagnosis_codes: ['I10', 'E11.9', 'I50.22'],
    });
  });

  it('keeps them when a save leaves them out, and records which changed', async () => {
    const id = (await createPatient(deps(), contextOf(provider), { ...fields(), consent_date: '2025-12-01', diagnosis_codes: ['I10'] })).id;
    const kept = await savePatient(deps(), contextOf(provider), id, fields({ last_name: 'Renamed' }));
    expect(kept).toMatchObject({ last_name: 'Renamed', consent_date: '2025-12-01', diagnosis_codes: ['I10'], ordering_provider_id: null });
    const ctx = contextOf(provider);
    await savePatient(deps(), ctx, id, { ...fields({ last_name: 'Renamed' }), diagnosis_codes: ['I10', 'E78.5'], consent_date: '' });
    expect(await readPatient(deps(), contextOf(provider), id)).toMatchObject({ diagnosis_codes: ['I10', 'E78.5'], consent_date: null });
    expect((await auditsOf(db.pool, ctx))[0]).toMatchObject({
      action: 'patient.update',
      details: { changed_fields: ['consent_date', 'diagnosis_codes'] },
    });
  });

  it('refuses each bad value with its own text, recorded, and saves nothing', async () => {
    const id = await buildPatient(db.pool, { organizationId: orgA, lastName: 'Unchanged' });
    const cases: [Partial<PatientUpdate>, string, string][] = [
      [{ ordering_provider_id: foreign.id }, PatientErrors.orderingProviderNotInOrganization, 'ordering provider not an active provider of the organization'],
      [{ consent_date: '2999-01-01' }, PatientErrors.consentDateOutOfRange, 'consent date out of range'],
      [{ consent_date: '1899-12-31' }, PatientErrors.consentDateOutOfRange, 'consent date out of range'],
      [{ diagnosis_codes: ['I10', 'U07.1'] }, PatientErrors.diagnosisCodeInvalid('U07.1'), 'invalid diagnosis code'],
      [{ diagnosis_codes: ['hypertension'] }, PatientErrors.diagnosisCodeInvalid('HYPERTENSION'), 'invalid diagnosis code'],
      [{ diagnosis_codes: ['E11.12345'] }, PatientErrors.diagnosisCodeInvalid('E11.12345'), 'invalid diagnosis code'],
      [{ diagnosis_codes: Array.from({ length: 13 }, (_, i) => `E11.${i}`) }, PatientErrors.tooManyDiagnosisCodes, 'too many diagnosis codes'],
    ];
    for (const [change, message, reason] of cases) {
      const r = await refusalOf((ctx) => savePatient(deps(), ctx, id, { ...fields({ last_name: 'Changed' }), ...change }));
      expect(r).toMatchObject({ status: 400, message });
      expect(r.audits).toEqual([expect.objectContaining({ action: 'patient.update', outcome: 'failure', reason })]);
    }
    expect(await readPatient(deps(), contextOf(provider), id)).toMatchObject({
      last_name: 'Unchanged',
      ordering_provider_id: null,
      consent_date: null,
      diagnosis_codes: [],
    });
  });
});
