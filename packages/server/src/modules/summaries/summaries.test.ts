import {
  bloodPressure,
  patientSummaryPath,
  patientSummaryPdfPath,
  summaryArchivePath,
  summaryFigure,
  summaryMonthLabel,
  summaryPdfFileName,
  weight,
  type MonthlySummary,
} from '@rpm/contracts';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { actorOf } from '../../policies/actor.ts';
import { getBillingReport } from '../billing/billing.service.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildAlert, buildNote, buildOrganization, buildPatient, buildPatientPrograms, buildReadings, buildTrackingEntry, contextOf, setAlertStatus } from '../../../test/support/factories.ts';
import {
  apiClient,
  createStaff,
  signIn,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';

/*
 * Fixed data in March 2026, a month with a daylight-saving change in both time zones: New York
 * moves its clocks on 8 March, Berlin on 29 March. Each patient has readings just outside and
 * just inside the month's local bounds, and several on the day the clocks change.
 */
const MONTH = '2026-03';
let server: TestServer;
let providerNy: ApiClient;
let providerNyId: number;
let outsider: ApiClient;
let admin: ApiClient;
let nyPatient: number;
let orgNy: number;
let berlinPatient: number;

const bp = (at: string, systolic: number, diastolic: number) => ({ at, systolic, diastolic, source: 'CUFF-1' });
const kg = (at: string, value: number) => ({
  at,
  kind: weight.kind,
  components: { [weight.primary]: value },
  unit: weight.components[0]!.ucum,
  source: 'SCALE-1',
});

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db.pool;
  orgNy = (await buildOrganization(db, { timeZone: 'America/New_York' })).id;
  const orgBerlin = (await buildOrganization(db, { timeZone: 'Europe/Berlin' })).id;
  const other = (await buildOrganization(db, {})).id;
  const staff = await createStaff(server, { role: 'provider', organizationId: orgNy });
  providerNyId = staff.id;
  providerNy = await signIn(server, staff);
  outsider = await signInNewStaff(server, 'provider', other);
  admin = await signInNewStaff(server, 'admin', null);

  nyPatient = await buildPatient(db, {
    organizationId: orgNy,
    firstName: 'Ada',
    lastName: 'Newyork',
    dateOfBirth: '1950-02-03',
    enrolledRpm: true,
    primaryProviderId: providerNyId,
  });
  await buildPatientPrograms(db, nyPatient, ['hypertension']);
  await buildReadings(db, nyPatient, [
    bp('2026-03-01T04:59:00Z', 180, 110), // 28 Feb 23:59 EST: February
    bp('2026-03-01T05:00:00Z', 118, 76), // 1 Mar 00:00 EST
    bp('2026-03-08T06:30:00Z', 124, 78), // 8 Mar 01:30 EST, before the change
    bp('2026-03-08T07:30:00Z', 142, 92), // 8 Mar 03:30 EDT, after it
    bp('2026-03-09T03:30:00Z', 128, 79), // 8 Mar 23:30 EDT: still the 8th
    bp('2026-04-01T04:00:00Z', 90, 60), // 1 Apr 00:00 EDT: April
    kg('2026-03-31T03:59:00Z', 80), // 30 Mar 23:59 EDT
    kg('2026-04-01T03:59:00Z', 81.5), // 31 Mar 23:59 EDT
  ]);
  // Three alerts raised in March (two resolved after a call, one open), one in February.
  const alert = async (rule: string, firstAt: string, reason: string | null) => {
    const id = await buildAlert(db, { patientId: nyPatient, organizationId: orgNy, rule, firstAt });
    if (reason) await setAlertStatus(db, { id }, 'resolved', { resolutionReason: reason, resolvedAt: { ago: '0 seconds' } });
  };
  await alert('bp_stage2', '2026-03-05T15:00:00Z', 'reached_patient');
  await alert('bp_low', '2026-03-10T15:00:00Z', 'reached_patient');
  await alert('stale_data', '2026-03-20T15:00:00Z', null);
  await alert('pulse_high', '2026-02-20T15:00:00Z', 'no_action_needed');
  const note = async (content: string, at: string) => {
    await buildNote(db, { patientId: nyPatient, authorId: providerNyId, content, createdAt: at });
  };
  await note('Called about the high readings', '2026-03-09T03:30:00Z'); // 8 Mar local
  await note('February note', '2026-03-01T04:00:00Z');
  await buildTrackingEntry(db, { patientId: nyPatient, date: '2026-02-28', durationMinutes: 30, userId: providerNyId });
  await buildTrackingEntry(db, { patientId: nyPatient, date: '2026-03-01', durationMinutes: 12, userId: providerNyId });
  await buildTrackingEntry(db, {
    patientId: nyPatient,
    date: '2026-03-31',
    durationMinutes: 15,
    userId: providerNyId,
    interactive: true,
    contactType: 'phone',
  });

  berlinPatient = await buildPatient(db, {
    organizationId: orgBerlin,
    firstName: 'Bert',
    lastName: 'Berlin',
    enrolledRpm: true,
  });
  await buildReadings(db, berlinPatient, [
    bp('2026-02-28T22:59:00Z', 170, 100), // 28 Feb 23:59 CET: February
    bp('2026-02-28T23:30:00Z', 120, 70), // 1 Mar 00:30 CET
    bp('2026-03-29T00:30:00Z', 126, 74), // 29 Mar 01:30 CET, before the change
    bp('2026-03-29T21:30:00Z', 131, 75), // 29 Mar 23:30 CEST
    bp('2026-03-31T21:30:00Z', 121, 71), // 31 Mar 23:30 CEST
    bp('2026-03-31T22:30:00Z', 200, 120), // 1 Apr 00:30 CEST: April
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const summaryOf = async (client: ApiClient, patientId: number) => {
  const res = await client.get<MonthlySummary>(patientSummaryPath(patientId, MONTH));
  expect(res.status).toBe(200);
  return res.body;
};
const kindOf = (s: MonthlySummary, kind: string) => s.kinds.find((k) => k.kind === kind)!;
const componentOf = (s: MonthlySummary, kind: string, code: string) =>
  kindOf(s, kind).components.find((c) => c.code === code)!;

describe('GET /api/patients/{id}/summary', () => {
  it('counts the New York month in its time zone, across the change to summer time', async () => {
    const s = await summaryOf(providerNy, nyPatient);
    expect(s.time_zone).toBe('America/New_York');
    expect(s.period_start).toBe('2026-03-01T05:00:00.000Z');
    expect(s.period_end).toBe('2026-04-01T04:00:00.000Z');
    expect(s.complete).toBe(true);
    expect(s.patient).toEqual({ id: nyPatient, name: 'Ada Newyork', date_of_birth: '1950-02-03' });
    expect(s.programs.map((p) => p.id)).toEqual(['hypertension']);
    const pressure = kindOf(s, bloodPressure.kind);
    expect(pressure.count).toBe(4);
    // 1 March and 8 March (three readings, one before and two after the clocks moved).
    expect(pressure.days_measured).toBe(2);
    // 142/92 is stage 2; the others are below 130/80 and classify as normal.
    expect(pressure.in_target).toBe(3);
    expect(pressure.in_target_share).toBe(0.75);
    expect(componentOf(s, bloodPressure.kind, 'systolic')).toMatchObject({ count: 4, mean: 128, min: 118, max: 142 });
    expect(componentOf(s, bloodPressure.kind, 'diastolic')).toMatchObject({ count: 4, mean: 81, min: 76, max: 92 });
    // 80 and 81.5 kg: the mean 80.75 is shown to the unit's one decimal, rounded half away from zero.
    const w = componentOf(s, weight.kind, weight.primary);
    expect(w).toMatchObject({ count: 2, mean: 80.8, min: 80, max: 81.5, decimals: 1 });
    expect(kindOf(s, weight.kind).days_measured).toBe(2);
    // The registry's order: blood pressure before weight; kinds without readings are left out.
    expect(s.kinds.map((k) => k.kind)).toEqual([bloodPressure.kind, weight.kind]);
  });

  it('tells the alerts, notes and time of the month', async () => {
    const s = await summaryOf(providerNy, nyPatient);
    expect(s.alerts).toEqual({ raised: 3, open: 1, resolved: [{ reason: 'reached_patient', count: 2 }] });
    expect(s.notes).toEqual([{ date: '2026-03-08', author: 'Test provider', text: 'Called about the high readings' }]);
    expect(s.tracking.minutes).toBe(27);
    expect(s.tracking.live_contacts).toBe(1);
    expect(s.tracking.entries.map((e) => [e.date, e.minutes, e.contact_type])).toEqual([
      ['2026-03-01', 12, null],
      ['2026-03-31', 15, 'phone'],
    ]);
  });

  it('lists the codes the billing report gives the patient for the month', async () => {
    const s = await summaryOf(providerNy, nyPatient);
    // The billing report's own service (one implementation of the rules), for the same provider.
    const actor = actorOf({ id: providerNyId, email: 'x@example.com', role: 'provider', organizationId: orgNy, cognitoUsername: null });
    const report = await getBillingReport({ db: server.db.pool }, contextOf(actor), { month: MONTH });
    const row = report.rows.find((r) => r.patient_id === nyPatient)!;
    expect(row.codes.length).toBeGreaterThan(0);
    expect(s.codes).toEqual(row.codes);
  });

  it('counts the Berlin month in its own time zone', async () => {
    const s = await summaryOf(admin, berlinPatient);
    expect(s.time_zone).toBe('Europe/Berlin');
    expect(s.period_start).toBe('2026-02-28T23:00:00.000Z');
    expect(s.period_end).toBe('2026-03-31T22:00:00.000Z');
    const pressure = kindOf(s, bloodPressure.kind);
    expect(pressure.count).toBe(4);
    // 1, 29 (before and after the change) and 31 March.
    expect(pressure.days_measured).toBe(3);
    expect(componentOf(s, bloodPressure.kind, 'systolic')).toMatchObject({ mean: 125, min: 120, max: 131 });
    expect(s.alerts).toEqual({ raised: 0, open: 0, resolved: [] });
    expect(s.notes).toEqual([]);
    expect(s.tracking).toEqual({ minutes: 0, live_contacts: 0, entries: [] });
  });

  it('audits the read', async () => {
    await summaryOf(providerNy, nyPatient);
    const record = await lastAuditOf(server, 'summary.read', String(nyPatient));
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'patient', user_id: providerNyId });
    expect(record.details).toMatchObject({ month: MONTH, kinds: 2, readings: 6 });
  });

  it("refuses another organization's provider with 404 and audits the refusal", async () => {
    const res = await outsider.get(patientSummaryPath(nyPatient, MONTH));
    expect(res.status).toBe(404);
    const record = await lastAuditOf(server, 'summary.read', String(nyPatient));
    expect(record).toMatchObject({ outcome: 'denied', reason: 'patient of another organization' });
  });

  it('refuses a caller without a session and a malformed month', async () => {
    expect((await apiClient(server).get(patientSummaryPath(nyPatient, MONTH))).status).toBe(401);
    expect((await providerNy.get(patientSummaryPath(nyPatient, '2026-13'))).status).toBe(400);
  });
});

/** The PDF's pages: their text (mupdf's own extraction) and each page drawn to a PNG. */
function pagesOf(pdf: Buffer) {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  return Array.from({ length: doc.countPages() }, (_, i) => {
    const page = doc.loadPage(i);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(1, 1), mupdf.ColorSpace.DeviceRGB, false);
    const pixels = pixmap.getPixels();
    let dark = 0;
    for (let p = 0; p < pixels.length; p += 3) if (pixels[p]! + pixels[p + 1]! + pixels[p + 2]! < 384) dark++;
    return {
      bounds: page.getBounds(),
      text: page.toStructuredText('preserve-whitespace').asText(),
      png: pixmap.asPNG(),
      dark,
    };
  });
}

describe('GET /api/patients/{id}/summary.pdf', () => {
  it('is an A4 PDF download with the name, the month and each kind’s mean, audited', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: patientSummaryPdfPath(nyPatient, MONTH),
      headers: { cookie: providerNy.cookie! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${summaryPdfFileName(nyPatient, MONTH)}"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const pages = pagesOf(res.rawPayload);
    expect(pages.length).toBeGreaterThan(0);
    const [x0, y0, x1, y1] = pages[0]!.bounds;
    expect([Math.round(x1 - x0), Math.round(y1 - y0)]).toEqual([595, 842]);
    for (const page of pages) {
      expect([...page.png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      // Text on every page (the footer at least): not a blank render.
      expect(page.dark).toBeGreaterThan(500);
    }
    const text = pages.map((p) => p.text).join('\n');
    const s = await summaryOf(providerNy, nyPatient);
    expect(text).toContain('Ada Newyork');
    expect(text).toContain(summaryMonthLabel(MONTH));
    for (const kind of s.kinds) {
      expect(text).toContain(kind.label);
      for (const c of kind.components) expect(text).toContain(summaryFigure(c.mean, c.decimals));
    }
    const record = await lastAuditOf(server, 'summary.pdf', String(nyPatient));
    expect(record).toMatchObject({ outcome: 'success', user_id: providerNyId });
    expect(record.details).toMatchObject({ month: MONTH, paper: 'a4' });
  });

  it('is US Letter on ?paper=letter', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: patientSummaryPdfPath(nyPatient, MONTH, 'letter'),
      headers: { cookie: providerNy.cookie! },
    });
    expect(res.statusCode).toBe(200);
    const [x0, y0, x1, y1] = pagesOf(res.rawPayload)[0]!.bounds;
    expect([Math.round(x1 - x0), Math.round(y1 - y0)]).toEqual([612, 792]);
  });

  it("is refused for another organization's patient, and the refusal audited", async () => {
    const res = await outsider.get(patientSummaryPdfPath(nyPatient, MONTH));
    expect(res.status).toBe(404);
    expect(await lastAuditOf(server, 'summary.pdf', String(nyPatient))).toMatchObject({ outcome: 'denied' });
  });
});

/** The file names and contents of a zip archive. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

describe('GET /api/summaries.zip', () => {
  it("holds one PDF per enrolled patient of the provider's, audited with the count", async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: summaryArchivePath(MONTH),
      headers: { cookie: providerNy.cookie! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store');
    const files = await unzip(res.rawPayload);
    expect([...files.keys()]).toEqual([summaryPdfFileName(nyPatient, MONTH)]);
    const text = pagesOf(files.get(summaryPdfFileName(nyPatient, MONTH))!)
      .map((p) => p.text)
      .join('\n');
    expect(text).toContain('Ada Newyork');
    const record = await lastAuditOf(server, 'summary.archive', MONTH);
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'summary', user_id: providerNyId });
    expect(record.details).toMatchObject({ provider_id: providerNyId, patients: 1, patient_ids: [nyPatient] });
  });

  it('lets an admin name the provider, and refuses a provider naming another', async () => {
    const byAdmin = await server.app.inject({
      method: 'GET',
      url: summaryArchivePath(MONTH, providerNyId),
      headers: { cookie: admin.cookie! },
    });
    expect(byAdmin.statusCode).toBe(200);
    expect([...(await unzip(byAdmin.rawPayload)).keys()]).toHaveLength(1);
    const refused = await outsider.get(summaryArchivePath(MONTH, providerNyId));
    expect(refused.status).toBe(403);
    expect(await lastAuditOf(server, 'summary.archive', MONTH)).toMatchObject({
      outcome: 'denied',
      reason: 'patients of another provider',
    });
  });
});
