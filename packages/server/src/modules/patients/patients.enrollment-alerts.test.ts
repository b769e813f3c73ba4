import type { PatientUpdate } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { kysely } from '../../db/kysely.ts';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildStaff, buildStoredReadings, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { evaluateStoredReadings } from '../alerts/index.ts';
import { savePatient } from './patients.service.ts';

/** Ending a patient's enrollment closes the patient's alerts, in the same save. */
const db = serviceDatabase();
let org: number;
let provider: Actor;

beforeAll(async () => {
  org = (await buildOrganization(db.pool)).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
});

const fields = (o: Partial<PatientUpdate> = {}): PatientUpdate => ({
  first_name: 'Eve',
  middle_name: null,
  last_name: 'Ended',
  date_of_birth: null,
  gender: null,
  organization_id: org,
  primary_provider_id: null,
  enrolled_rpm: true,
  enrollment_status: 'Active',
  ...o,
});

/** An active RPM patient with an open crisis alert. */
async function patientWithAlert(): Promise<number> {
  const id = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
  await evaluateStoredReadings(db.pool, await buildStoredReadings(db.pool, id, [{ systolic: 200, diastolic: 125 }]));
  return id;
}
const alertsOf = (id: number) =>
  kysely(db.pool).selectFrom('alerts').select(['status', 'resolution_reason']).where('patient_id', '=', id).execute();

describe('ending enrollment closes the alerts', () => {
  it.each([
    ['discharged', { enrollment_status: 'Discharged' as const }],
    ['paused', { enrollment_status: 'Paused' as const }],
    ['taken out of RPM', { enrolled_rpm: false }],
  ])('%s: the open alerts are resolved (enrollment_ended) and recorded', async (_, change) => {
    const id = await patientWithAlert();
    const ctx = contextOf(provider);
    await savePatient({ db: db.pool }, ctx, id, fields(change));
    expect(await alertsOf(id)).toEqual([{ status: 'resolved', resolution_reason: 'enrollment_ended' }]);
    expect((await auditsOf(db.pool, ctx)).map((a) => a.action)).toEqual(['alert.close_enrollment_ended', 'patient.update']);
  });

  it('another change of an active patient leaves them open', async () => {
    const id = await patientWithAlert();
    await savePatient({ db: db.pool }, contextOf(provider), id, fields({ first_name: 'Evelyn' }));
    expect(await alertsOf(id)).toEqual([{ status: 'open', resolution_reason: null }]);
  });
});
