import type { VitalPage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { createStaff, signIn, startTestServer, type TestServer } from '../../test/support/http.ts';
import { isoTime } from '../kernel/time.ts';
import { runMigrations } from './migrate.ts';
import { grantRuntimeRole } from './runtime-role.ts';

/**
 * `vitals` became `observations` in place (0960). A database of the schema before it, with the
 * kinds of rows clinics have (cuff readings with and without a pulse, heart rates alone, manual
 * readings, alerts pointing at readings, waiting pulses), is migrated: every row keeps its id and
 * values, every reference still points at its reading, and the spec's vitals answers are the same
 * bytes as the rows gave before.
 */
let db: TestDatabase;
let server: TestServer;
let patientId: number;
let otherPatientId: number;
let before: { rows: Record<string, unknown>[]; answers: Map<number, string>; alertRefs: unknown[]; unmatched: unknown[] };

/** The spec's vitals page as the rows before the migration give it (newest first, all of them). */
async function vitalsAnswerBefore(id: number): Promise<string> {
  const { rows } = await db.ownerPool.query<{ created_at: Date; systolic: number | null; diastolic: number | null; pulse: number | null; source: string }>(
    `SELECT created_at, systolic, diastolic, pulse, source FROM vitals WHERE patient_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`,
    [id],
  );
  const { rows: total } = await db.ownerPool.query<{ n: number }>(`SELECT count(*)::int AS n FROM vitals WHERE patient_id = $1`, [id]);
  const page: VitalPage = {
    items: rows.map((r) => ({ created_at: isoTime(r.created_at), systolic: r.systolic, diastolic: r.diastolic, pulse: r.pulse, source: r.source })),
    total: total[0]!.n,
  };
  return JSON.stringify(page);
}

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  await runMigrations(db.ownerPool, { before: '0960' });
  const q = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
  const org = (await q(`INSERT INTO organizations (name) VALUES ('Before Clinic') RETURNING id`)).rows[0].id as number;
  patientId = (await q(`INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm) VALUES ('Old', 'Cuff', $1, true) RETURNING id`, [org])).rows[0].id;
  otherPatientId = (await q(`INSERT INTO patients (first_name, last_name, organization_id) VALUES ('Other', 'One', $1) RETURNING id`, [org])).rows[0].id;
  const device = (await q(`INSERT INTO devices (device_id, model, type, patient_id) VALUES ('CUFF-OLD', 'BP', 'cuff', $1) RETURNING id`, [patientId])).rows[0].id;
  // 150 cuff readings (every third without a pulse), 5 heart rates alone, 3 manual readings.
  await q(
    `INSERT INTO vitals (patient_id, device_id, source, created_at, kind, systolic, diastolic, pulse, irregular_heartbeat)
     SELECT $1, $2, 'CUFF-OLD', timestamptz '2026-08-01T06:00:00Z' + g * interval '7 hours', 'blood_pressure',
            100 + g % 80, 60 + g % 50, CASE WHEN g % 3 = 0 THEN NULL ELSE 55 + g % 40 END, CASE WHEN g % 10 = 0 THEN true END
       FROM generate_series(1, 150) g`,
    [patientId, device],
  );
  await q(
    `INSERT INTO vitals (patient_id, device_id, source, created_at, kind, pulse)
     SELECT $1, $2, 'CUFF-OLD', timestamptz '2026-08-01T06:30:00Z' + g * interval '1 day', 'heart_rate', 70 + g FROM generate_series(1, 5) g`,
    [patientId, device],
  );
  await q(
    `INSERT INTO vitals (patient_id, created_at, systolic, diastolic, pulse) VALUES
       ($1, '2026-09-01T10:00:00Z', 181, 121, NULL), ($1, '2026-09-02T10:00:00Z', 120, 80, 64), ($2, '2026-09-03T10:00:00Z', 141, 91, 77)`,
    [patientId, otherPatientId],
  );
  // An alert raised by two of the readings, and waiting readings of an unknown device.
  const [first, second] = (await q(`SELECT id FROM vitals WHERE patient_id = $1 ORDER BY id LIMIT 2`, [patientId])).rows.map((r) => r.id);
  const alert = (
    await q(
      `INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, last_values, last_vital_id, first_at, last_at)
       VALUES ($1, $2, 'bp_high', 'high', 2, '{"systolic": 150, "diastolic": 95}', $3, now(), now()) RETURNING id`,
      [patientId, org, second],
    )
  ).rows[0].id;
  await q(`INSERT INTO alert_readings (alert_id, vital_id) VALUES ($1, $2), ($1, $3)`, [alert, first, second]);
  await q(
    `INSERT INTO unmatched_readings (device_identifier, measured_at, kind, systolic, diastolic, pulse) VALUES
       ('NEW-CUFF', '2026-11-20T08:00:00Z', 'blood_pressure', 130, 85, 70),
       ('NEW-CUFF', '2026-11-20T09:00:00Z', 'blood_pressure', NULL, NULL, 66),
       ('NEW-CUFF', '2026-11-20T10:00:00Z', 'heart_rate', NULL, NULL, 71)`,
  );

  before = {
    rows: (
      await q(
        `SELECT id, patient_id, device_id, source, created_at, kind, systolic, diastolic, pulse, irregular_heartbeat, source_id,
                received_at, measurement_index
           FROM vitals ORDER BY id`,
      )
    ).rows,
    answers: new Map([
      [patientId, await vitalsAnswerBefore(patientId)],
      [otherPatientId, await vitalsAnswerBefore(otherPatientId)],
    ]),
    alertRefs: (await q(`SELECT a.id, a.last_vital_id, ar.vital_id FROM alerts a JOIN alert_readings ar ON ar.alert_id = a.id ORDER BY 3`)).rows,
    unmatched: (await q(`SELECT id, device_identifier, measured_at, kind, systolic, diastolic, pulse FROM unmatched_readings ORDER BY id`)).rows,
  };

  expect(await runMigrations(db.ownerPool)).toContain('0960_observations.sql');
  await grantRuntimeRole(db.ownerPool, inject('postgresRuntimeUser').role);
  server = await startTestServer({}, db);
}, 120_000);
afterAll(async () => server?.close());

describe('0960: vitals become observations in place', () => {
  it('keeps every row with its id, kind and values, and the sequence goes on', async () => {
    const { rows } = await db.ownerPool.query(
      `SELECT id, patient_id, device_id, source, created_at, kind, systolic, diastolic, pulse, irregular_heartbeat, source_id,
              received_at, measurement_index
         FROM observations ORDER BY id`,
    );
    expect(rows).toEqual(before.rows);
    const units = await db.ownerPool.query(`SELECT kind, unit, count(*)::int AS n FROM observations GROUP BY 1, 2 ORDER BY 1`);
    expect(units.rows).toEqual([
      { kind: 'blood_pressure', unit: 'mm[Hg]', n: 153 },
      { kind: 'heart_rate', unit: '/min', n: 5 },
    ]);
    const next = await db.ownerPool.query(
      `INSERT INTO observations (patient_id, kind, components, unit) VALUES ($1, 'weight', '{"weight": 80.5}', 'kg') RETURNING id`,
      [patientId],
    );
    expect(next.rows[0].id).toBeGreaterThan(Math.max(...before.rows.map((r) => Number(r.id))));
    await db.ownerPool.query(`DELETE FROM observations WHERE id = $1`, [next.rows[0].id]);
  });

  it('keeps the alerts pointing at the readings that raised them, and the waiting readings', async () => {
    const refs = await db.ownerPool.query(`SELECT a.id, a.last_vital_id, ar.vital_id FROM alerts a JOIN alert_readings ar ON ar.alert_id = a.id ORDER BY 3`);
    expect(refs.rows).toEqual(before.alertRefs);
    const unmatched = await db.ownerPool.query(
      `SELECT id, device_identifier, measured_at, kind, systolic, diastolic, pulse FROM unmatched_readings ORDER BY id`,
    );
    expect(unmatched.rows).toEqual(before.unmatched);
  });

  it('answers the spec’s vitals pages with the same bytes as before', async () => {
    const admin = await createStaff(server, { role: 'admin', organizationId: null });
    const client = await signIn(server, admin);
    for (const id of [patientId, otherPatientId]) {
      const res = await server.app.inject({ method: 'GET', url: `/api/patients/${id}/vitals?limit=100`, headers: { cookie: client.cookie ?? '' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(before.answers.get(id));
    }
  });
});
