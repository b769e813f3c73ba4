import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  billingWorklistPath,
  DEFAULT_ORGANIZATION_TIME_ZONE,
  type BillingReport,
  type BillingRow,
  type BillingWorklist,
  type BillingWorklistRow,
  type AdminUsersResponse,
  type PatientList,
  type PatientListItem,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import { kysely } from '../../db/kysely.ts';
import { createTestDatabase, testKeys } from '../../../test/db.ts';
import { auditRecordsOf } from '../../../test/support/audit.ts';
import { signInNewStaff, startTestServer, type ApiClient, type TestServer } from '../../../test/support/http.ts';
import { monthBounds, addDays } from './billing-rules.ts';

/**
 * The billing worklist against the billing report for every patient of the demo seed (`npm run
 * seed:demo`, run as the operator would, into this test's database), over three consecutive
 * months: the month the seed ends in and the two before it. The seed writes 90 days back from now,
 * so which months those are depends on the day the test runs; what is compared does not: the two
 * answers must be equal, month by month, whatever the months are.
 */
let server: TestServer;
let admin: ApiClient;
let dataDir: string;

/** Runs `npm run seed:demo` as the operator would, into the test's database; answers what it printed. */
async function runSeed(databaseUrl: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=@rpm/source', '--import', 'tsx', path.join(REPO_ROOT, 'packages/server/scripts/seed-demo.ts')],
    {
      cwd: REPO_ROOT,
      timeout: 420_000,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        // The test server's keys, so that it can read the user pool the seed wrote.
        PORTAL_MASTER_KEY: testKeys.masterKey.toString('hex'),
        AUDIT_HMAC_KEY: testKeys.auditHmacKey.toString('hex'),
      },
    },
  );
  return stdout;
}

let ownerUrl: string;

beforeAll(async () => {
  const db = await createTestDatabase();
  ownerUrl = db.ownerUrl;
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-demo-seed-'));
  await runSeed(ownerUrl);
  server = await startTestServer({}, db);
  admin = await signInNewStaff(server, 'admin', null);
}, 480_000);
afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const shared = (r: BillingRow | BillingWorklistRow) => ({
  patient_id: r.patient_id,
  organization_id: r.organization_id,
  period_start: r.period_start,
  period_end: r.period_end,
  device_days: r.device_days,
  minutes: r.minutes,
  interactive: r.interactive,
  codes: r.codes,
});
const byPatient = (a: { patient_id: number }, b: { patient_id: number }) => a.patient_id - b.patient_id;

describe('the worklist agrees with the report for the demo seed', () => {
  it('for every patient, over the seed’s last three months', async () => {
    // The seed's organizations keep the default time zone; its last month is the one of today there.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_ORGANIZATION_TIME_ZONE }).format(new Date());
    const last = today.slice(0, 7);
    const previous = (month: string) => addDays(monthBounds(month).start, -1).slice(0, 7);
    const months = [previous(previous(last)), previous(last), last];
    let earned = 0;
    for (const month of months) {
      const report = await admin.get<BillingReport>(`/api/billing?month=${month}`);
      const worklist = await admin.get<BillingWorklist>(`${billingWorklistPath}?month=${month}`);
      expect(report.status).toBe(200);
      expect(worklist.status).toBe(200);
      // The seed enrolls some 35 of its 50 patients (the rest declined or discharged).
      expect(report.body.rows.length).toBeGreaterThan(20);
      expect(worklist.body.rows.map(shared).sort(byPatient)).toEqual(report.body.rows.map(shared).sort(byPatient));
      earned += report.body.rows.filter((r) => r.codes.length > 0).length;
    }
    // The comparison is not one of empty rows: the seed's patients earn codes.
    expect(earned).toBeGreaterThan(10);
  });
});

/** The demo's patients as the admin's patient list shows them (all of them: the seed makes 50). */
async function demoPatients(): Promise<PatientListItem[]> {
  const list = await admin.get<PatientList>('/api/patients?limit=100');
  expect(list.status).toBe(200);
  return list.body.items;
}

const observationCount = async () =>
  Number(
    (
      await kysely(server.db.pool)
        .selectFrom('observations')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the demo seed makes its data through the services', () => {
  it('each patient was created by the patients service and each reading stored by the observations service', async () => {
    const patients = await demoPatients();
    expect(patients).toHaveLength(50);
    const created = await auditRecordsOf(server, { action: 'patient.create' }, ['resource_id', 'outcome']);
    expect(
      created
        .filter((r) => r.outcome === 'success')
        .map((r) => Number(r.resource_id))
        .sort((a, b) => a - b),
    ).toEqual(patients.map((p) => p.id).sort((a, b) => a - b));
    // One audited request per reading, as staff typing them in leave: none stored around the service.
    const stored = await auditRecordsOf(server, { action: 'observation.create' }, ['outcome']);
    expect(stored.length).toBeGreaterThan(10_000);
    expect(stored.every((r) => r.outcome === 'success')).toBe(true);
    expect(await observationCount()).toBe(stored.length);
    // The demo's staff were registered by an admin through the users service.
    const users = await admin.get<AdminUsersResponse>('/api/admin/users');
    const demoStaff = users.body.users.filter(
      (u) => u.email.startsWith('dr.') || u.email.startsWith('nurse.') || u.email === 'demo.admin@example.com',
    );
    expect(demoStaff).toHaveLength(5);
    const registered = new Set(
      (await auditRecordsOf(server, { action: 'user.create' }, ['target_user_id'])).map((r) => r.target_user_id),
    );
    for (const u of demoStaff) expect(registered.has(u.id)).toBe(true);
  });

  it('the alerts come from evaluating the readings as they were stored: only for active patients', async () => {
    const patients = await demoPatients();
    const alerts = await kysely(server.db.pool).selectFrom('alerts').select(['patient_id']).execute();
    expect(alerts.length).toBeGreaterThan(0);
    const active = new Set(patients.filter((p) => p.enrolled_rpm && p.enrollment_status === 'Active').map((p) => p.id));
    expect(alerts.filter((a) => !active.has(a.patient_id))).toEqual([]);
    // And the patient list counts them: the open ones of some patients.
    expect(patients.some((p) => p.open_alerts > 0)).toBe(true);
  });

  it('a second run adds nothing twice', async () => {
    const before = await observationCount();
    const printed = await runSeed(ownerUrl);
    expect(printed).toContain('Patients: 0 created (50 already there); 0 readings added.');
    expect(printed).toContain('(already there, password unchanged)');
    expect(await demoPatients()).toHaveLength(50);
    expect(await observationCount()).toBe(before);
  }, 300_000);
});
