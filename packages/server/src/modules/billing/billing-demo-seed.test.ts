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
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import { createTestDatabase, testKeys } from '../../../test/db.ts';
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

beforeAll(async () => {
  const db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-demo-seed-'));
  await promisify(execFile)(
    process.execPath,
    ['--conditions=@rpm/source', '--import', 'tsx', path.join(REPO_ROOT, 'packages/server/scripts/seed-demo.ts')],
    {
      cwd: REPO_ROOT,
      timeout: 240_000,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: db.ownerUrl,
        DATA_DIR: dataDir,
        // The test server's keys, so that it can read the user pool the seed wrote.
        PORTAL_MASTER_KEY: testKeys.masterKey.toString('hex'),
        AUDIT_HMAC_KEY: testKeys.auditHmacKey.toString('hex'),
      },
    },
  );
  server = await startTestServer({}, db);
  admin = await signInNewStaff(server, 'admin', null);
}, 300_000);
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
