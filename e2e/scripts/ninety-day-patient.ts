/**
 * The patient the performance checks open: a blood pressure and a weight each morning for the
 * last 90 days, entered through the API as manual readings (the record a clinician reviews at a
 * monthly call), so that the page draws a quarter of readings of two kinds.
 */
import { callApi, type Portal } from '../harness.ts';

export const DAYS_OF_READINGS = 90;

/** Creates the patient in the admin's first organization; returns its id. */
export async function createNinetyDayPatient(portal: Portal, cookie: string): Promise<number> {
  const org = await portal.db.query<{ id: number }>('SELECT id FROM organizations ORDER BY id LIMIT 1');
  const patient = await callApi<{ id: number }>(portal, cookie, 'POST', '/api/patients', {
    first_name: 'Light',
    last_name: 'House',
    organization_id: org.rows[0]!.id,
    insurances: [],
    device_ids: [],
  });
  if (patient.status !== 201) throw new Error(`could not create the patient: ${JSON.stringify(patient.body)}`);
  // A morning blood pressure and weight for each of the last 90 days, varying a little.
  const day = (ago: number, hour: number) => {
    const d = new Date();
    d.setUTCHours(hour, 0, 0, 0);
    d.setUTCDate(d.getUTCDate() - ago);
    return d.toISOString();
  };
  for (let ago = DAYS_OF_READINGS; ago >= 1; ago--) {
    const readings = [
      { kind: 'blood_pressure', created_at: day(ago, 7), components: { systolic: 118 + (ago % 23), diastolic: 74 + (ago % 11), pulse: 64 + (ago % 9) } },
      { kind: 'weight', created_at: day(ago, 7), components: { weight: 82 + ((ago % 7) - 3) * 0.3 }, unit: 'kg' },
    ];
    for (const reading of readings) {
      const added = await callApi(portal, cookie, 'POST', `/api/patients/${patient.body.id}/observations`, reading);
      if (added.status !== 201) throw new Error(`could not add a reading: ${JSON.stringify(added.body)}`);
    }
  }
  return patient.body.id;
}
