/**
 * One classifier, three places: boundary readings of every marked kind, typed in by a provider,
 * are walked through the table mark, the chart's bands and the alert rules. A reading exactly at
 * a threshold is classified the same in all three (e.g. 180/120 is stage 2, not a crisis, in the
 * table, in the chart and on the worklist).
 */
import {
  AlertTexts,
  bloodPressure,
  DEFAULT_THRESHOLDS,
  glucose,
  Labels,
  ObservationTexts,
  oxygenSaturation,
  PatientTexts,
  temperature,
  type Alert,
  type AlertPage,
  type AlertRule,
  type MeasurementKind,
  type MeasurementLevel,
  type WorklistPage,
} from '@rpm/contracts';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  buildPatient,
  callApi,
  collectConsoleErrors,
  createProvider,
  launchBrowser,
  type Portal,
  signInAs,
  signInViaApi,
  startPortal,
} from './harness.ts';

let portal: Portal;
let browser: Browser;
let provider: { email: string; password: string };
let providerCookie: string;
let patientId: number;

/** A boundary reading, the mark the classifier gives it, and the rules on the worklist after it. */
interface Step {
  kind: MeasurementKind;
  components: Record<string, number>;
  /** Minutes before now it was measured. */
  ago: number;
  /** The table cell texts that find its row (after the time cell). */
  cells: string[];
  level: MeasurementLevel;
  /** Rules open after this reading (cumulative), and rules that must not be. */
  raises: AlertRule[];
  notYet: AlertRule[];
}

const t = DEFAULT_THRESHOLDS;
const steps: Step[] = [
  // Blood pressure: 180/120 exactly is stage 2 (at or above 135/85), not a crisis (above 180/120).
  {
    kind: bloodPressure,
    components: { systolic: 180, diastolic: 120 },
    ago: 300,
    cells: ['180', '120'],
    level: 'high',
    raises: [],
    notYet: ['bp_crisis'],
  },
  {
    kind: bloodPressure,
    components: { systolic: 181, diastolic: 80 },
    ago: 290,
    cells: ['181', '80'],
    level: 'critical',
    raises: ['bp_crisis'],
    notYet: ['bp_stage2'],
  },
  // Glucose: 70 is not hypoglycemia, 69 is level 1; 54 is level 1, 53 level 2; 400 is high (alerts
  // only twice in a day), 401 critical.
  {
    kind: glucose,
    components: { glucose: t.glucose_low },
    ago: 280,
    cells: ['70'],
    level: 'normal',
    raises: [],
    notYet: ['glucose_low'],
  },
  {
    kind: glucose,
    components: { glucose: t.glucose_low - 1 },
    ago: 270,
    cells: ['69'],
    level: 'low',
    raises: ['glucose_low'],
    notYet: [],
  },
  {
    kind: glucose,
    components: { glucose: t.glucose_very_low },
    ago: 260,
    cells: ['54'],
    level: 'low',
    raises: [],
    notYet: ['glucose_very_low'],
  },
  {
    kind: glucose,
    components: { glucose: t.glucose_very_low - 1 },
    ago: 250,
    cells: ['53'],
    level: 'critical',
    raises: ['glucose_very_low'],
    notYet: [],
  },
  {
    kind: glucose,
    components: { glucose: t.glucose_very_high },
    ago: 240,
    cells: ['400'],
    level: 'high',
    raises: [],
    notYet: ['glucose_very_high', 'glucose_high'],
  },
  {
    kind: glucose,
    components: { glucose: t.glucose_very_high + 1 },
    ago: 230,
    cells: ['401'],
    level: 'critical',
    raises: ['glucose_very_high', 'glucose_high'],
    notYet: [],
  },
  // Oxygen saturation (not COPD: target 92 %): 92 is fine, 91 below target (alerts when a second
  // comes within the hour), 85 below target, 84 critical.
  {
    kind: oxygenSaturation,
    components: { spo2: t.spo2_target },
    ago: 200,
    cells: ['92'],
    level: 'normal',
    raises: [],
    notYet: ['spo2_low'],
  },
  {
    kind: oxygenSaturation,
    components: { spo2: t.spo2_target - 1 },
    ago: 190,
    cells: ['91'],
    level: 'low',
    raises: [],
    notYet: ['spo2_low'],
  },
  {
    kind: oxygenSaturation,
    components: { spo2: t.spo2_critical },
    ago: 170,
    cells: ['85'],
    level: 'low',
    raises: ['spo2_low'],
    notYet: ['spo2_critical'],
  },
  {
    kind: oxygenSaturation,
    components: { spo2: t.spo2_critical - 1 },
    ago: 160,
    cells: ['84'],
    level: 'critical',
    raises: ['spo2_critical'],
    notYet: [],
  },
  // Temperature: fever at or above 38.0 °C.
  {
    kind: temperature,
    components: { temperature: t.fever - 0.1 },
    ago: 150,
    cells: ['37.9'],
    level: 'normal',
    raises: [],
    notYet: ['fever'],
  },
  {
    kind: temperature,
    components: { temperature: t.fever },
    ago: 140,
    cells: ['38.0'],
    level: 'high',
    raises: ['fever'],
    notYet: [],
  },
];

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const organizationId = await adminOrganizationId(portal);
  provider = await createProvider(portal, adminCookie, {
    emailPrefix: 'agreement',
    firstName: 'Ada',
    lastName: 'Agree',
    organizationId,
    password: 'Agreement-e2e-Pa55!',
  });
  providerCookie = await signInViaApi(portal, provider.email, provider.password);
  patientId = await buildPatient(portal.db, {
    organizationId,
    firstName: 'Bea',
    lastName: 'Boundary',
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  const programs = await callApi(portal, adminCookie, 'PUT', `/api/patients/${patientId}/programs`, {
    programs: ['hypertension', 'diabetes'],
  });
  expect(programs.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

async function openRules(): Promise<Alert[]> {
  const res = await callApi<AlertPage>(portal, providerCookie, 'GET', `/api/alerts?patient_id=${patientId}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.items.filter((a) => a.status !== 'resolved');
}

type DrawnBand = { from: number | null; to: number | null; level: string };

/**
 * The drawn band levels (the chart's data-bands) that contain `value`: ends included, or (strict)
 * excluded — a reading on a band's edge sits on the line between two bands.
 */
function bandLevelsAt(bands: DrawnBand[], value: number, strict = false) {
  const above = (from: number | null) => from === null || (strict ? value > from : value >= from);
  const below = (to: number | null) => to === null || (strict ? value < to : value <= to);
  return bands.filter((b) => b.level !== 'target' && above(b.from) && below(b.to)).map((b) => b.level);
}

async function rowOf(table: Locator, cells: string[]): Promise<Locator> {
  const rows = table.locator('tbody tr');
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const texts = (await rows.nth(i).getByRole('cell').allTextContents()).map((s) => s.trim());
    if (cells.every((c, j) => texts[j + 1] === c)) return rows.nth(i);
  }
  throw new Error(`no row with ${cells.join(' / ')} in the table`);
}

async function tableOf(page: Page, kind: MeasurementKind): Promise<Locator> {
  // Blood pressure is the spec's vitals table; every other kind has its panel's table.
  const table =
    kind === bloodPressure
      ? page.getByRole('table', { name: PatientTexts.vitals, exact: true })
      : page.getByRole('table', { name: kind.label, exact: true });
  await table.waitFor();
  return table;
}

async function chartBands(page: Page, kind: MeasurementKind): Promise<DrawnBand[]> {
  const chart =
    kind === bloodPressure
      ? page.getByRole('img', { name: PatientTexts.chartLabel })
      : page.getByRole('img', { name: ObservationTexts.chartLabel(kind.label) });
  await chart.locator('canvas').first().waitFor();
  // The bands come with the patient's thresholds, which may answer after the first drawing.
  await expect.poll(() => chart.getAttribute('data-bands'), { timeout: 10_000 }).toBeTruthy();
  return JSON.parse((await chart.getAttribute('data-bands'))!) as DrawnBand[];
}

/** The chart agrees: a normal reading lies inside no band; a marked one in (or on the edge of) its level's band. */
async function expectBand(page: Page, step: Step) {
  const value = step.components[step.kind.primary]!;
  const bands = await chartBands(page, step.kind);
  if (step.level === 'normal') expect(bandLevelsAt(bands, value, true), `${value} lies in no band`).toEqual([]);
  else expect(bandLevelsAt(bands, value), `${value} lies in a ${step.level} band`).toContain(step.level);
}

describe('table, chart and alerts agree at the boundaries', () => {
  it('walks each boundary reading through the alert rules, the table mark and the chart band', async () => {
    // 1. The alert rules, reading by reading (each stored and evaluated in its own request).
    for (const step of steps) {
      const res = await callApi(portal, providerCookie, 'POST', `/api/patients/${patientId}/observations`, {
        kind: step.kind.kind,
        created_at: new Date(Date.now() - step.ago * 60_000).toISOString(),
        components: step.components,
      });
      expect(res.status, `${step.kind.kind} ${JSON.stringify(step.components)} is stored`).toBe(201);
      const open = new Set((await openRules()).map((a) => a.rule));
      for (const rule of step.raises) expect(open, `${JSON.stringify(step.components)} raises ${rule}`).toContain(rule);
      for (const rule of step.notYet)
        expect(open, `${JSON.stringify(step.components)} does not raise ${rule}`).not.toContain(rule);
      // The classifier gives the mark the step expects (the same function the rules match on).
      expect(step.kind.classify(step.components, { programs: ['hypertension', 'diabetes'] }).level).toBe(step.level);
    }

    // 2. The table marks and the chart bands, as the provider sees them.
    const context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page, [/401/]);
    await signInAs(page, portal, provider.email, provider.password);
    await page.goto(`${portal.url}/patients/${patientId}`);
    await page.getByRole('heading', { name: 'Bea Boundary' }).waitFor();
    for (const step of steps) {
      const table = await tableOf(page, step.kind);
      const row = await rowOf(table, step.cells);
      const timeCell = (await row.getByRole('cell').first().textContent()) ?? '';
      const mark = step.kind.classify(step.components, { programs: ['hypertension', 'diabetes'] });
      if (step.level === 'normal') {
        for (const level of Object.values(AlertTexts.levels)) expect(timeCell).not.toContain(`${level}:`);
      } else {
        expect(timeCell, `${step.cells.join('/')} is marked`).toContain(
          `${AlertTexts.levels[mark.level as 'high']}: ${mark.label}`,
        );
      }
      // The panels draw their chart beside the table; blood pressure's is behind the Figure toggle.
      if (step.kind !== bloodPressure) await expectBand(page, step);
    }
    await page.getByRole('button', { name: Labels.figure }).click();
    for (const step of steps.filter((s) => s.kind === bloodPressure)) await expectBand(page, step);
    // The worklist shows the patient once, with the alerts the rules raised.
    const worklist = await callApi<WorklistPage>(portal, providerCookie, 'GET', '/api/alerts/worklist');
    const row = worklist.body.items.find((r) => r.patient_id === patientId);
    expect(row?.severity).toBe('critical');
    expect(new Set(row?.alerts.map((a) => a.rule))).toEqual(new Set((await openRules()).map((a) => a.rule)));
    expect(errors).toEqual([]);
    await context.close();
  });
});
