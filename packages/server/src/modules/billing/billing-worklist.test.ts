import {
  BILLING_PAGE_MAX,
  BILLING_PAGE_SIZE,
  BILLING_WORKLIST_SORTS,
  SORT_ORDERS,
  type BillingWorklistSort,
  billingClosePath,
  billingExportPath,
  billingWorklistPath,
  type BillingReport,
  type BillingRow,
  type BillingWorklist,
  type BillingWorklistRow,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signIn,
  signInNewStaff,
  type ApiClient,
  type TestServer,
  startTestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import {
  buildOutreach,
  buildPatient,
  buildPatientPrograms,
  buildReadings,
  buildTrackingEntry,
  type ReadingOptions,
  setActiveSpans,
  setOrganizationTimeZone,
} from '../../../test/support/factories.ts';

/**
 * The month's worklist against the month's report, over HTTP: for every enrolled patient of a
 * cohort of 21 with varied adherence, minutes, contacts, pauses and time zones, over three
 * consecutive past months (August to October 2026, fixed dates), each worklist row carries the
 * report row's codes and figures. Then its filters and triage columns.
 */
let server: TestServer;
let admin: ApiClient;
let providerA: ApiClient;
let orgA: number;
let orgB: number;
const providers: number[] = [];
const patients: { id: number; org: number; provider: number; programs: string[] }[] = [];
let notEnrolled: number;

const MONTHS = ['2026-08', '2026-09', '2026-10'] as const;
const DAY_MS = 86_400_000;

/** A small deterministic generator (mulberry32): the same cohort on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);

/** Spans of activity set by hand, as the enrollment history would have left them (the owner repairs history). */
const setSpans = (patientId: number, spans: [string, string | null][]) =>
  setActiveSpans(server.db.ownerPool, patientId, spans);

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  await setOrganizationTimeZone(server.db.pool, orgB, 'America/Los_Angeles');
  admin = await signInNewStaff(server, 'admin', null);
  const staffA = await createStaff(server, { role: 'provider', organizationId: orgA });
  providerA = await signIn(server, staffA);
  providers.push(staffA.id, (await createStaff(server, { role: 'provider', organizationId: orgA })).id);
  const staffB = (await createStaff(server, { role: 'provider', organizationId: orgB })).id;

  const rnd = random(26);
  const adherence = [0.95, 0.8, 0.6, 0.4, 0.15];
  const programs = [['hypertension'], ['heart_failure'], ['hypertension', 'diabetes']];
  for (let i = 0; i < 21; i++) {
    const org = i % 4 === 3 ? orgB : orgA;
    const provider = org === orgB ? staffB : providers[i % 2]!;
    const status = i % 7 === 5 ? 'Declined' : i % 6 === 4 ? 'Discharged' : 'Active';
    const id = await buildPatient(server.db.pool, {
      organizationId: org,
      firstName: `Cohort${String(i).padStart(2, '0')}`,
      lastName: ['Nguyen', 'García', 'Smith', 'Okafor', 'Müller', 'Lee', 'Patel'][i % 7]!,
      primaryProviderId: provider,
      enrolledRpm: true,
      enrollmentStatus: status,
    });
    patients.push({ id, org, provider, programs: programs[i % 3]! });
    await buildPatientPrograms(server.db.pool, id, programs[i % 3]!);
    // Histories from June to late September; some patients measure every day, some rarely.
    const first = Date.UTC(2026, 5, 1) + Math.floor(rnd() * 110) * DAY_MS;
    const p = adherence[i % 5]!;
    const readings: ReadingOptions[] = [];
    for (let day = first; day < Date.UTC(2026, 10, 1); day += DAY_MS) {
      if (rnd() >= p) continue;
      // Any time of the UTC day: late evenings in America fall on the next UTC day, and back.
      const at = iso(day + Math.floor(rnd() * 96) * 15 * 60_000);
      if (i % 3 === 1 && rnd() < 0.5)
        readings.push({ at, source: `SCALE-${i}`, kind: 'weight', components: { weight: 80 }, unit: 'kg' });
      else readings.push({ at, source: rnd() < 0.1 ? 'manual' : `CUFF-${i}`, systolic: 120, diastolic: 80 });
    }
    await buildReadings(server.db.pool, id, readings);
    for (const month of [7, 8, 9]) {
      const entries = Math.floor(rnd() * 5);
      for (let e = 0; e < entries; e++) {
        await buildTrackingEntry(server.db.pool, {
          patientId: id,
          date: dayOf(Date.UTC(2026, month, 1 + Math.floor(rnd() * 28))),
          durationMinutes: 2 + Math.floor(rnd() * 14),
          interactive: rnd() < 0.3,
        });
      }
    }
    // Pauses: some paused mid-September for two weeks, the discharged ones since October 12, the
    // declined ones never active (their status alone leaves no span).
    if (i % 6 === 1)
      await setSpans(id, [
        ['-infinity', '2026-09-10T15:00:00Z'],
        ['2026-09-25T15:00:00Z', null],
      ]);
    if (status === 'Discharged') await setSpans(id, [['-infinity', '2026-10-12T15:00:00Z']]);
  }
  notEnrolled = await buildPatient(server.db.pool, {
    organizationId: orgA,
    firstName: 'Not',
    lastName: 'Enrolled',
    enrolledRpm: false,
  });
  await buildReadings(server.db.pool, notEnrolled, [{ at: '2026-09-02T16:00:00Z', source: 'CUFF-X' }]);
});
afterAll(async () => server?.close());

const reportOf = async (client: ApiClient, query: string) => {
  const res = await client.get<BillingReport>(`/api/billing?${query}`);
  expect(res.status).toBe(200);
  return res.body;
};
const worklistOf = async (client: ApiClient, query: string) => {
  const res = await client.get<BillingWorklist>(`${billingWorklistPath}?${query}`);
  expect(res.status).toBe(200);
  return res.body;
};
/** The figures a worklist row shares with the report's row. */
const shared = (r: BillingRow | BillingWorklistRow) => ({
  patient_id: r.patient_id,
  patient_name: r.patient_name,
  organization_id: r.organization_id,
  period_start: r.period_start,
  period_end: r.period_end,
  device_days: r.device_days,
  minutes: r.minutes,
  interactive: r.interactive,
  codes: r.codes,
});

/** Every row of the worklist equals the report's row of that patient, and no patient is left out either way. */
async function expectAgreement(client: ApiClient, query: string) {
  const report = await reportOf(client, query);
  const worklist = await worklistOf(client, query);
  expect(worklist.rows.map(shared).sort((a, b) => a.patient_id - b.patient_id)).toEqual(
    report.rows.map(shared).sort((a, b) => a.patient_id - b.patient_id),
  );
  return { report, worklist };
}

describe('the worklist agrees with the report', () => {
  it.each(MONTHS)('for every patient in %s, codes and figures', async (month) => {
    const { report, worklist } = await expectAgreement(admin, `month=${month}`);
    expect(report.rows).toHaveLength(21);
    expect(worklist.rows.map((r) => r.patient_id)).not.toContain(notEnrolled);
    // The cohort earns a bit of everything, so the comparison is not one of empty rows.
    const codes = new Set(report.rows.flatMap((r) => r.codes.map((c) => c.code)));
    expect(codes.size).toBeGreaterThanOrEqual(4);
    // A past month: no days left, nothing more to earn, the report's order.
    expect(worklist.today).toBe(`${month}-${month === '2026-09' ? '30' : '31'}`);
    for (const row of worklist.rows) {
      expect(row).toMatchObject({ days_left: 0, at_risk: false, needs: { code: null } });
    }
    expect(worklist.rows.map((r) => r.patient_id)).toEqual(report.rows.map((r) => r.patient_id));
    expect(await lastAuditOf(server, 'billing.worklist')).toMatchObject({ outcome: 'success', resource_id: month });
  });

  it("for a provider's own organization, and an organization an admin picks", async () => {
    for (const month of MONTHS) {
      const { worklist } = await expectAgreement(providerA, `month=${month}`);
      expect(new Set(worklist.rows.map((r) => r.organization_id))).toEqual(new Set([orgA]));
      const { worklist: onlyB } = await expectAgreement(admin, `month=${month}&organization_id=${orgB}`);
      expect(onlyB.rows.map((r) => r.patient_id).sort()).toEqual(
        patients
          .filter((p) => p.org === orgB)
          .map((p) => p.id)
          .sort(),
      );
    }
  });

  it('for the current month, whichever it is', async () => {
    const month = new Date().toISOString().slice(0, 7);
    await expectAgreement(providerA, `month=${month}`);
    const byDefault = await worklistOf(providerA, '');
    expect(byDefault.month).toMatch(/^\d{4}-\d{2}$/);
    await expectAgreement(providerA, `month=${byDefault.month}`);
  });

  it('for a closed month, from its snapshot like the report', async () => {
    expect((await admin.post(billingClosePath('2026-08'))).status).toBe(200);
    // A back-dated reading written by hand (the owner): the closed month stays as it was.
    const late = patients[2]!.id;
    await buildReadings(server.db.ownerPool, late, [{ at: '2026-08-30T16:00:00Z', source: 'CUFF-LATE' }]);
    const { report } = await expectAgreement(admin, 'month=2026-08');
    expect(report.closed).toBe(true);
  });
});

describe('filters and triage columns', () => {
  it('filters by primary provider, program and organization', async () => {
    const byProvider = await worklistOf(admin, `month=2026-10&provider_id=${providers[1]}`);
    expect(byProvider.rows.map((r) => r.patient_id).sort()).toEqual(
      patients
        .filter((p) => p.provider === providers[1])
        .map((p) => p.id)
        .sort(),
    );
    expect(
      byProvider.rows.every((r) => r.primary_provider_id === providers[1] && r.primary_provider === 'Test provider'),
    ).toBe(true);
    const byProgram = await worklistOf(admin, 'month=2026-10&program=diabetes');
    expect(byProgram.rows.map((r) => r.patient_id).sort()).toEqual(
      patients
        .filter((p) => p.programs.includes('diabetes'))
        .map((p) => p.id)
        .sort(),
    );
    expect(byProgram.rows.every((r) => r.programs.join() === 'hypertension,diabetes')).toBe(true);
    const both = await worklistOf(providerA, `month=2026-10&program=hypertension&provider_id=${providers[0]}`);
    expect(both.rows.map((r) => r.patient_id).sort()).toEqual(
      patients
        .filter((p) => p.provider === providers[0] && p.programs.includes('hypertension'))
        .map((p) => p.id)
        .sort(),
    );
    expect((await worklistOf(admin, 'month=2026-10&program=copd')).rows).toEqual([]);
  });

  it("refuses a provider another organization's worklist, and audits it", async () => {
    expect((await providerA.get(`${billingWorklistPath}?month=2026-10&organization_id=${orgB}`)).status).toBe(403);
    expect(await lastAuditOf(server, 'billing.worklist')).toMatchObject({ outcome: 'denied' });
    expect((await providerA.get(`${billingWorklistPath}?month=2026-13`)).status).toBe(400);
    expect((await providerA.get(`${billingWorklistPath}?program=Not%20a%20program`)).status).toBe(400);
  });

  it('shows the last reading and the last outreach up to the month end, and whether the patient is active', async () => {
    const patient = patients[0]!.id;
    await buildOutreach(server.db.pool, { patientId: patient, outcome: 'called', at: '2026-09-14T15:00:00Z' });
    const { rows } = await server.db.pool.query<{ september: Date; october: Date }>(
      `SELECT max(created_at) FILTER (WHERE created_at < '2026-10-01T04:00:00Z') AS september, max(created_at) AS october
         FROM observations WHERE patient_id = $1`,
      [patient],
    );
    const rowIn = async (month: string) =>
      (await worklistOf(admin, `month=${month}`)).rows.find((r) => r.patient_id === patient)!;
    expect(await rowIn('2026-10')).toMatchObject({
      last_reading_at: rows[0]!.october.toISOString(),
      last_outreach_at: '2026-09-14T15:00:00.000Z',
      active: true,
    });
    expect(await rowIn('2026-09')).toMatchObject({
      last_reading_at: rows[0]!.september.toISOString(),
      last_outreach_at: '2026-09-14T15:00:00.000Z',
    });
    expect(await rowIn('2026-08')).toMatchObject({ last_outreach_at: null });
    expect((await rowIn('2026-10')).programs).toEqual(['hypertension']);
    // West of UTC the month ends after the last UTC day: a reading late on September 30 in Los
    // Angeles (03:00 UTC on October 1) is September's last, not an earlier one of that UTC month.
    const west = patients.find((p) => p.org === orgB)!.id;
    await buildReadings(server.db.pool, west, [
      { at: '2026-09-29T16:00:00Z', source: 'CUFF-WEST' },
      { at: '2026-10-01T03:00:00Z', source: 'CUFF-WEST' },
    ]);
    expect((await worklistOf(admin, 'month=2026-09')).rows.find((r) => r.patient_id === west)).toMatchObject({
      last_reading_at: '2026-10-01T03:00:00.000Z',
    });
    const discharged = patients[4]!.id;
    expect((await worklistOf(admin, 'month=2026-10')).rows.find((r) => r.patient_id === discharged)).toMatchObject({
      active: false,
    });
  });
});

describe('paging', () => {
  /** Every row of a query, a page of `limit` at a time, checking each page's count and bounds. */
  async function pagesOf<T extends { rows: { patient_id: number }[]; total: number; limit: number; offset: number }>(
    get: (query: string) => Promise<T>,
    query: string,
    limit: number,
  ): Promise<{ pages: T[]; ids: number[] }> {
    const pages: T[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await get(`${query}&limit=${limit}&offset=${offset}`);
      expect(page).toMatchObject({ limit, offset });
      expect(page.rows.length).toBe(Math.max(0, Math.min(limit, page.total - offset)));
      pages.push(page);
      if (offset + limit >= page.total) break;
    }
    expect(new Set(pages.map((p) => p.total)).size).toBe(1);
    return { pages, ids: pages.flatMap((p) => p.rows.map((r) => r.patient_id)) };
  }
  const current = new Date().toISOString().slice(0, 7);

  it('cuts the worklist into pages in its own order, each with the count of all rows, open and closed months alike', async () => {
    // The current month ranks rows by what can still be earned (many alike: the name decides).
    for (const month of [current, '2026-10', '2026-08']) {
      const whole = await worklistOf(admin, `month=${month}&limit=500`);
      expect(whole.total).toBe(21);
      expect(whole.rows).toHaveLength(21);
      const { pages, ids } = await pagesOf((q) => worklistOf(admin, q), `month=${month}`, 4);
      expect(pages).toHaveLength(6);
      expect(ids).toEqual(whole.rows.map((r) => r.patient_id));
      expect(pages.flatMap((p) => p.rows)).toEqual(whole.rows);
    }
    expect(await lastAuditOf(server, 'billing.worklist')).toMatchObject({
      details: expect.objectContaining({ patients: 21, offset: 20, shown: 1 }),
    });
  });

  it('sorts every row by a column before cutting the page, ties in its own order, a missing date last', async () => {
    const keyOf: Record<BillingWorklistSort, (r: BillingWorklistRow) => string | number | null> = {
      patient: (r) => r.patient_name.toLowerCase(),
      at_risk: (r) => Number(r.at_risk),
      device_days: (r) => r.device_days,
      minutes: (r) => r.minutes,
      interactive: (r) => Number(r.interactive),
      last_reading: (r) => r.last_reading_at && Date.parse(r.last_reading_at),
      last_outreach: (r) => r.last_outreach_at && Date.parse(r.last_outreach_at),
    };
    // An open month with some patients at risk, a past one, and a closed one (its snapshot).
    for (const month of [current, '2026-10', '2026-08']) {
      const whole = (await worklistOf(admin, `month=${month}&limit=500`)).rows;
      for (const column of BILLING_WORKLIST_SORTS)
        for (const order of SORT_ORDERS) {
          const key = keyOf[column];
          const sign = order === 'asc' ? 1 : -1;
          const want = whole
            .map((row, index) => ({ row, index, k: key(row) }))
            .sort((a, b) => {
              if (a.k === null || b.k === null) return a.k === b.k ? a.index - b.index : a.k === null ? 1 : -1;
              return a.k === b.k ? a.index - b.index : (a.k < b.k ? -1 : 1) * sign;
            })
            .map(({ row }) => row.patient_id);
          const { ids } = await pagesOf((q) => worklistOf(admin, q), `month=${month}&sort=${column}&order=${order}`, 8);
          expect(ids, `${month} by ${column} ${order}`).toEqual(want);
        }
    }
    // Some rows differ in each column, so the sorts are not the default order in disguise.
    const past = (await worklistOf(admin, 'month=2026-10&limit=500')).rows;
    for (const column of ['device_days', 'minutes', 'last_reading', 'last_outreach'] as const)
      expect(new Set(past.map(keyOf[column])).size, column).toBeGreaterThan(1);
    expect((await admin.get(`${billingWorklistPath}?sort=name`)).status).toBe(400);
    expect((await admin.get(`${billingWorklistPath}?sort=minutes&order=up`)).status).toBe(400);
  });

  it('cuts the report into pages by name, with the totals of every row on each page', async () => {
    for (const month of ['2026-09', '2026-08']) {
      const whole = await reportOf(admin, `month=${month}&limit=500`);
      const { pages, ids } = await pagesOf((q) => reportOf(admin, q), `month=${month}`, 5);
      expect(ids).toEqual(whole.rows.map((r) => r.patient_id));
      expect(pages.flatMap((p) => p.rows)).toEqual(whole.rows);
      expect(whole.totals.length).toBeGreaterThanOrEqual(3);
      for (const page of pages) expect(page.totals).toEqual(whole.totals);
      expect(pages[0]!.closed).toBe(month === '2026-08');
    }
    // By default, the first page of BILLING_PAGE_SIZE rows (the cohort fits in it).
    expect(await reportOf(admin, 'month=2026-09')).toMatchObject({ total: 21, limit: BILLING_PAGE_SIZE, offset: 0 });
    // The CSV export is never paged: one line per code of every row.
    const csv = (await admin.request('GET', `${billingExportPath}?month=2026-09`)).body as unknown as string;
    const whole = await reportOf(admin, 'month=2026-09&limit=500');
    expect(csv.trim().split('\n')).toHaveLength(1 + whole.rows.reduce((n, r) => n + r.codes.length, 0));
  });

  it('filters by provider and program before paging, in the worklist of an open and a closed month', async () => {
    for (const month of [current, '2026-08']) {
      const query = `month=${month}&provider_id=${providers[0]}&program=hypertension`;
      const whole = await worklistOf(admin, `${query}&limit=500`);
      const expected = patients.filter((p) => p.provider === providers[0] && p.programs.includes('hypertension'));
      expect(whole.total).toBe(expected.length);
      expect(whole.rows.map((r) => r.patient_id).sort()).toEqual(expected.map((p) => p.id).sort());
      const { ids } = await pagesOf((q) => worklistOf(admin, q), query, 2);
      expect(ids).toEqual(whole.rows.map((r) => r.patient_id));
    }
    // A page past the end is empty, with the count.
    expect(await worklistOf(admin, 'month=2026-10&offset=40')).toMatchObject({ rows: [], total: 21 });
  });

  it('refuses a page out of bounds', async () => {
    for (const path of [billingWorklistPath, '/api/billing']) {
      for (const bad of ['limit=0', `limit=${BILLING_PAGE_MAX + 1}`, 'offset=-1', 'limit=ten', 'offset=1.5']) {
        expect((await admin.get(`${path}?month=2026-10&${bad}`)).status, `${path} ${bad}`).toBe(400);
      }
      expect((await admin.get(`${path}?month=2026-10&limit=${BILLING_PAGE_MAX}`)).status).toBe(200);
    }
  });
});
