import { ApiErrors, PatientErrors, Validation, type PatientUpdate } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf, refusalOf as refusalAs } from '../../../test/support/audit.ts';
import { buildDevice, buildOrganization, buildPatient, buildStaff, contextOf, disableUser } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { createPatient, listPatientsFor, readPatient, savePatient } from './patients.service.ts';

/** Business rules of patients, called on the service against a real database. */
const db = serviceDatabase();
let orgA: number;
let orgB: number;
let admin: Actor;
let provider: Actor;
let providerB: Actor;

beforeAll(async () => {
  orgA = (await buildOrganization(db.pool)).id;
  orgB = (await buildOrganization(db.pool)).id;
  admin = await buildStaff(db.pool, 'admin');
  provider = await buildStaff(db.pool, 'provider', { organizationId: orgA, firstName: 'Ada', lastName: 'Lee', title: 'MD' });
  providerB = await buildStaff(db.pool, 'provider', { organizationId: orgB });
});

const deps = () => ({ db: db.pool });
const fields = (o: Partial<PatientUpdate> = {}): PatientUpdate => ({
  first_name: 'Jane',
  middle_name: null,
  last_name: 'Doe',
  date_of_birth: null,
  gender: null,
  organization_id: orgA,
  primary_provider_id: null,
  enrolled_rpm: false,
  enrollment_status: null,
  ...o,
});

const refusalOf = (actor: Actor, call: Parameters<typeof refusalAs>[2]) => refusalAs(db.pool, actor, call);

describe('creating a patient', () => {
  it('trims names, stores blanks as null and names the primary provider with their title', async () => {
    const p = await createPatient(deps(), contextOf(provider), {
      ...fields({ first_name: '  Jane ', middle_name: '  ', primary_provider_id: provider.id }),
      insurances: [{ type: 'Private', provider_name: ' ', policyholder: ' Jo Doe ', policyholder_birthdate: '' }],
    });
    expect(p).toMatchObject({ first_name: 'Jane', middle_name: null, primary_provider_name: 'Ada Lee, MD', organization_id: orgA });
    expect(p.insurances).toEqual([
      { id: expect.any(Number), type: 'Private', provider_name: null, policy_number: null, policyholder: 'Jo Doe', policyholder_birthdate: null },
    ]);
  });

  it('says which name is missing, and records the failure', async () => {
    const r = await refusalOf(provider, (ctx) => createPatient(deps(), ctx, fields({ first_name: ' ' })));
    expect(r).toMatchObject({ status: 400, message: Validation.firstNameRequired });
    expect(r.audits).toEqual([expect.objectContaining({ action: 'patient.create', outcome: 'failure', reason: 'first name missing' })]);
    expect((await refusalOf(provider, (ctx) => createPatient(deps(), ctx, fields({ last_name: '' })))).message).toBe(
      Validation.lastNameRequired,
    );
  });

  it('keeps a provider to their own organization, recorded as denied', async () => {
    const r = await refusalOf(provider, (ctx) => createPatient(deps(), ctx, fields({ organization_id: orgB })));
    expect(r).toMatchObject({ status: 403, message: PatientErrors.otherOrganization });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'denied', reason: 'organization of another provider' })]);
  });

  it('refuses an unknown organization, a provider of another one, and dates outside 1900..today', async () => {
    expect((await refusalOf(admin, (ctx) => createPatient(deps(), ctx, fields({ organization_id: 999_999 })))).message).toBe(
      PatientErrors.organizationUnknown,
    );
    expect((await refusalOf(admin, (ctx) => createPatient(deps(), ctx, fields({ primary_provider_id: providerB.id })))).message).toBe(
      PatientErrors.providerNotInOrganization,
    );
    expect((await refusalOf(admin, (ctx) => createPatient(deps(), ctx, fields({ date_of_birth: '1899-12-31' })))).message).toBe(
      PatientErrors.dateOfBirthOutOfRange,
    );
  });

  it('allows policyholder fields on Private insurance only', async () => {
    const r = await refusalOf(provider, (ctx) =>
      createPatient(deps(), ctx, { ...fields(), insurances: [{ type: 'Medicare', policyholder: 'Someone' }] }),
    );
    expect(r).toMatchObject({ status: 400, message: PatientErrors.policyholderOnlyPrivate });
  });

  it('leaves device assignment to admins', async () => {
    const device = await buildDevice(db.pool);
    const r = await refusalOf(provider, (ctx) => createPatient(deps(), ctx, { ...fields(), device_ids: [device] }));
    expect(r).toMatchObject({ status: 403, message: PatientErrors.deviceAssignmentAdminOnly });
    expect(r.audits[0]).toMatchObject({ outcome: 'denied' });
    const p = await createPatient(deps(), contextOf(admin), { ...fields(), device_ids: [device] });
    expect(p.device_ids).toEqual([device]);
  });
});

describe('saving a patient', () => {
  it('moves a device from its previous patient and records the move', async () => {
    const from = await buildPatient(db.pool, { organizationId: orgA });
    const to = await buildPatient(db.pool, { organizationId: orgA });
    const device = await buildDevice(db.pool, { patientId: from });
    const ctx = contextOf(admin);
    const saved = await savePatient(deps(), ctx, to, { ...fields(), device_ids: [device] });
    expect(saved.device_ids).toEqual([device]);
    expect((await readPatient(deps(), contextOf(admin), from)).device_ids).toEqual([]);
    expect((await auditsOf(db.pool, ctx))[0]?.details).toMatchObject({ devices_moved: [{ device, from }] });
  });

  it('saves nothing when a later step fails (an unknown device undoes fields and insurances)', async () => {
    const id = await buildPatient(db.pool, { organizationId: orgA, firstName: 'Before' });
    const r = await refusalOf(admin, (ctx) =>
      savePatient(deps(), ctx, id, { ...fields({ first_name: 'After' }), insurances: [{ type: 'Medicaid' }], device_ids: [999_999] }),
    );
    expect(r).toMatchObject({ status: 400, message: PatientErrors.deviceUnknown });
    const after = await readPatient(deps(), contextOf(admin), id);
    expect(after).toMatchObject({ first_name: 'Before', insurances: [] });
  });

  it('keeps a primary provider who has since left, as long as it is not changed', async () => {
    const leaving = await buildStaff(db.pool, 'provider', { organizationId: orgA });
    const id = await buildPatient(db.pool, { organizationId: orgA, primaryProviderId: leaving.id });
    await disableUser(db.pool, leaving.id);
    const saved = await savePatient(deps(), contextOf(provider), id, fields({ primary_provider_id: leaving.id, last_name: 'Renamed' }));
    expect(saved).toMatchObject({ last_name: 'Renamed', primary_provider_id: leaving.id });
  });

  it('answers 404 for another organization’s patient, recorded as denied', async () => {
    const id = await buildPatient(db.pool, { organizationId: orgB });
    const r = await refusalOf(provider, (ctx) => savePatient(deps(), ctx, id, fields()));
    expect(r).toMatchObject({ status: 404, message: ApiErrors.notFound });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'denied', reason: 'patient of another organization' })]);
  });
});

describe('listing patients', () => {
  it('limits a provider to their organization and finds by name start or birth date', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const own = await buildStaff(db.pool, 'provider', { organizationId: org });
    await buildPatient(db.pool, { organizationId: org, firstName: 'Zoë', lastName: 'Quill', dateOfBirth: '1960-05-06' });
    await buildPatient(db.pool, { organizationId: org, firstName: 'Zed', lastName: 'Other', dateOfBirth: '1970-01-01' });
    await buildPatient(db.pool, { organizationId: orgB, firstName: 'Zoe', lastName: 'Quill' });
    const names = async (q: string) =>
      (await listPatientsFor(deps(), contextOf(own), { q })).items.map((p) => `${p.first_name} ${p.last_name}`);
    expect(await names('zoe qu')).toEqual(['Zoë Quill']);
    expect(await names('1960')).toEqual(['Zoë Quill']);
    expect(await names('05/06/1960')).toEqual(['Zoë Quill']);
    expect(await names('')).toEqual(['Zed Other', 'Zoë Quill']);
    const everyone = await listPatientsFor(deps(), contextOf(admin), { q: 'quill' });
    expect(everyone.total).toBe(2);
  });
});
