import {
  BILLING_PAGE_MAX,
  billingPath,
  billingWorklistPath,
  type BillingReport,
  type BillingWorklist,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import {
  buildPatient,
  buildReadings,
  buildTrackingEntry,
  movePatient,
  renamePatient,
  setActiveSpans,
  spoilKeptLines,
  setOrganizationTimeZone,
  setRpmEnrollment,
} from '../../../test/support/factories.ts';
import { compareOutlooks, monthBounds, totalsOf, worklistRow } from './billing-rules.ts';
import { billingInputs } from './billing.repository.ts';
import { billRow, currentMonth } from './billing.service.ts';
import {
  monthBefore,
  monthInputOf,
  refreshKeptLines,
  refreshOpenMonths,
  RULES_FINGERPRINT,
} from './billing-lines.service.ts';
import { BILLING_LINES_REFRESH_QUEUE, startBillingJobs } from './billing.jobs.ts';
import { withTransaction } from '../../db/pool.ts';
import pino from 'pino';

/**
 * The kept lines of open months (migration 1060) against the rules computed from scratch: after
 * each kind of change a line depends on (a new day of readings, minutes and contact, a pause, a
 * name, enrollment, the organization, its time zone, the clock, the rules themselves), the report
 * and the worklist, read from the kept lines, equal what billingInputs and the rules give now.
 */
let server: TestServer;
let admin: ApiClient;
let orgA: number;
let orgB: number;
const ids: number[] = [];
const DAY_MS = 86_400_000;
const month = currentMonth('America/New_York');
const lastMonth = monthBefore(month);

/** The report and the worklist as the rules give them from what the database holds now. */
async function live(m: string, organizationId: number | null) {
  const { start, end } = monthBounds(m);
  const inputs = await billingInputs(server.db.pool, { monthStart: start, monthEnd: end, organizationId });
  const report = inputs.map((input) => billRow(m, input));
  const worklist = inputs
    .map((input) => ({
      input,
      out: worklistRow({ ...monthInputOf(m, input), active: input.active, lastDay: input.last_day }),
    }))
    .sort((a, b) => compareOutlooks(a.out, b.out))
    .map(({ input, out }) => ({
      patient_id: input.patient_id,
      codes: out.codes,
      needs: out.needs,
      at_risk: out.at_risk,
      days_left: out.days_left,
      active: input.active,
    }));
  return { report, totals: totalsOf(report), worklist };
}

async function kept(m: string, organizationId: number | null) {
  const scope = organizationId === null ? '' : `&organization_id=${organizationId}`;
  const report = await admin.get<BillingReport>(`${billingPath}?month=${m}&limit=${BILLING_PAGE_MAX}${scope}`);
  const worklist = await admin.get<BillingWorklist>(
    `${billingWorklistPath}?month=${m}&limit=${BILLING_PAGE_MAX}${scope}`,
  );
  expect(report.status).toBe(200);
  expect(worklist.status).toBe(200);
  return {
    report: report.body.rows,
    totals: report.body.totals,
    worklist: worklist.body.rows.map((r) => ({
      patient_id: r.patient_id,
      codes: r.codes,
      needs: r.needs,
      at_risk: r.at_risk,
      days_left: r.days_left,
      active: r.active,
    })),
  };
}

/** Both months, every organization and each one: the kept answers are the computed ones. */
async function expectFresh(): Promise<void> {
  for (const m of [month, lastMonth])
    for (const org of [null, orgA, orgB]) {
      const want = await live(m, org);
      expect(await kept(m, org), `${m} organization ${org ?? 'all'}`).toEqual(want);
    }
}

const version = async (patientId: number) =>
  Number(
    (await server.db.pool.query('SELECT version FROM billing_patient_versions WHERE patient_id = $1', [patientId]))
      .rows[0]?.version ?? 0,
  );

const daysAgo = (n: number, hour = 15) => {
  const d = new Date(Date.now() - n * DAY_MS);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

beforeAll(async () => {
  server = await startTestServer();
  [orgA, orgB] = [(await createOrganization(server)).id, (await createOrganization(server)).id];
  admin = await signInNewStaff(server, 'admin', null);
  for (let i = 0; i < 6; i++) {
    const id = await buildPatient(server.db.pool, {
      organizationId: i < 4 ? orgA : orgB,
      firstName: `Kept${i}`,
      lastName: ['Okafor', 'García', 'Lee', 'Smith', 'Nguyen', 'Patel'][i]!,
      enrolledRpm: true,
      enrollmentStatus: 'Active',
    });
    ids.push(id);
    // Readings on most of the last 40 days (some on the day before: late in one calendar, next day in another).
    const days = Array.from({ length: 40 }, (_, d) => d).filter((d) => (d + i) % (i + 2) !== 0);
    await buildReadings(
      server.db.pool,
      id,
      days.map((d) => ({ at: daysAgo(d + 1, 3 + i * 3), source: `CUFF-${i}` })),
    );
    await buildTrackingEntry(server.db.pool, {
      patientId: id,
      date: daysAgo(1).slice(0, 10),
      durationMinutes: 4 * i,
      interactive: i % 2 === 0,
    });
  }
});
afterAll(() => server.close());

describe('kept billing lines', () => {
  it('are computed on the first read and equal the rules from scratch', async () => {
    await expectFresh();
    const n = await server.db.pool.query('SELECT count(*)::int AS n FROM billing_month_lines');
    expect(n.rows[0].n).toBe(12);
  });

  it('follow a new day of readings, and a second reading that day changes nothing', async () => {
    const before = await version(ids[0]!);
    await buildReadings(server.db.pool, ids[0]!, [{ at: new Date().toISOString(), source: 'CUFF-0' }]);
    const after = await version(ids[0]!);
    expect(after).toBeGreaterThan(before);
    await buildReadings(server.db.pool, ids[0]!, [{ at: new Date().toISOString(), source: 'CUFF-0' }]);
    expect(await version(ids[0]!)).toBe(after);
    await expectFresh();
  });

  it('follow minutes and a contact, a pause, a new name', async () => {
    await buildTrackingEntry(server.db.pool, {
      patientId: ids[1]!,
      date: new Date().toISOString().slice(0, 10),
      durationMinutes: 25,
      interactive: true,
    });
    await setActiveSpans(server.db.ownerPool, ids[2]!, [['-infinity', daysAgo(3)]]);
    await renamePatient(server.db.pool, ids[3]!, 'Aaronson');
    await expectFresh();
  });

  it('follow enrollment, a move to another organization, and a time zone', async () => {
    await setRpmEnrollment(server.db.pool, ids[4]!, false);
    await movePatient(server.db.pool, ids[0]!, orgB);
    await expectFresh();
    await setOrganizationTimeZone(server.db.pool, orgB, 'Pacific/Kiritimati');
    await expectFresh();
    const lines = await server.db.pool.query('SELECT patient_id FROM billing_month_lines WHERE patient_id = $1', [
      ids[4],
    ]);
    expect(lines.rows).toEqual([]);
  });

  it('are computed again once past their freshness or kept by other rules', async () => {
    await spoilKeptLines(server.db.pool, ids[1]!, { expired: true });
    await spoilKeptLines(server.db.pool, ids[5]!, { rules: 'older' });
    await expectFresh();
    const rules = await server.db.pool.query('SELECT DISTINCT rules FROM billing_month_lines');
    expect(rules.rows).toEqual([{ rules: RULES_FINGERPRINT }]);
    // The midnight of the organization's calendar, or sooner.
    const until = await server.db.pool.query<{ fresh_until: Date }>(
      'SELECT fresh_until FROM billing_month_lines WHERE patient_id = $1 AND month = $2',
      [ids[1], `${month}-01`],
    );
    expect(until.rows[0]!.fresh_until.getTime()).toBeGreaterThan(Date.now());
    expect(until.rows[0]!.fresh_until.getTime()).toBeLessThanOrEqual(Date.now() + DAY_MS + 3_600_000);
  });

  it('end where the patient goes inactive later, not at midnight', async () => {
    const end = new Date(Date.now() + 300_000).toISOString();
    await setActiveSpans(server.db.ownerPool, ids[5]!, [['-infinity', end]]);
    await expectFresh();
    const until = await server.db.pool.query<{ fresh_until: Date }>(
      'SELECT fresh_until FROM billing_month_lines WHERE patient_id = $1 AND month = $2',
      [ids[5], `${month}-01`],
    );
    expect(until.rows[0]!.fresh_until.getTime()).toBeLessThanOrEqual(new Date(end).getTime());
  });

  it('are brought up to date in the background, and the lines no page reads are dropped', async () => {
    const stale = `SELECT count(*)::int AS n FROM billing_month_lines WHERE fresh_until <= now() OR line->>'minutes' = '999'`;
    await spoilKeptLines(server.db.pool, ids[1]!, { expired: true });
    await spoilKeptLines(server.db.pool, ids[3]!, { rules: 'older' });
    // A month long past, as an old report's read would have kept it.
    await withTransaction(server.db.pool, (tx) => refreshKeptLines(tx, '2025-01', null));
    expect(
      (await server.db.pool.query(`SELECT count(*)::int AS n FROM billing_month_lines WHERE month = '2025-01-01'`))
        .rows[0].n,
    ).toBeGreaterThan(0);

    const result = await refreshOpenMonths(server.db.pool);
    expect(result.lines).toBeGreaterThanOrEqual(2);
    expect(result.dropped).toBeGreaterThan(0);
    expect((await server.db.pool.query(stale)).rows[0].n).toBe(0);
    expect(
      (await server.db.pool.query(`SELECT count(*)::int AS n FROM billing_month_lines WHERE month = '2025-01-01'`))
        .rows[0].n,
    ).toBe(0);
    // Nothing left for a request to compute, and its answers are the rules'.
    await expect(withTransaction(server.db.pool, (tx) => refreshKeptLines(tx, month, null))).resolves.toBe(0);
    await expectFresh();
  });

  it('are refreshed by the job queue', async () => {
    await spoilKeptLines(server.db.pool, ids[2]!, { expired: true });
    const jobs = await startBillingJobs({
      pool: server.db.pool,
      log: pino({ level: 'silent' }),
      pollingIntervalSeconds: 0.5,
    });
    try {
      await jobs.boss.send(BILLING_LINES_REFRESH_QUEUE, {});
      await expect
        .poll(
          async () =>
            (
              await server.db.pool.query(
                `SELECT count(*)::int AS n FROM billing_month_lines WHERE patient_id = $1 AND fresh_until <= now()`,
                [ids[2]],
              )
            ).rows[0].n,
          { timeout: 20_000, interval: 200 },
        )
        .toBe(0);
    } finally {
      await jobs.stop();
    }
  }, 30_000);
});
