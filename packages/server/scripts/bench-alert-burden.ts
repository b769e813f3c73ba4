/**
 * Measures alert burden against alert yield: a labelled cohort of synthetic patients (controlled
 * and uncontrolled hypertension, white-coat noise, a hypertensive crisis, heart-failure weight
 * gain, hypoglycaemia, desaturation with and without COPD, a device left in a drawer) sends 30
 * days of readings, ending now, through the running app's real ingestion routes (the Tenovi
 * webhook and FHIR Bundles, with a real source secret and FHIR credential), in time order. The
 * alerts raised are then read straight from the alerts table (only patient_id, rule, severity,
 * status, first_at and created_at, and no alert-rule code, so that the script measures the rules
 * before and after a rewrite alike) and set against the true events the cohort was built with:
 * per label, alerts per 100 patient-days, true events alerted, the delay from the event's first
 * reading to its alert's first_at (simulated time), and for critical events whether the alert
 * existed when the request that carried the reading returned. The readings are deterministic
 * (fixed seed), so one run is the measurement; the request times printed are medians.
 *
 *   npm run bench:alert-burden                   (embedded PostgreSQL, or a scratch database on DATABASE_URL's server)
 *   npm run bench:alert-burden -- --demo         (read-only: the database in DATABASE_URL, else the portal's
 *                                                 embedded one with the portal stopped, as `npm run seed:demo`)
 *
 * Optional: BENCH_PATIENTS_PER_LABEL (default 20), BENCH_SEED. It always exits 0: it measures,
 * the targets' lines say whether they are met.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { DEFAULT_INGEST_AUTH_HEADER, FHIR_BUNDLE_MAX_ENTRIES, KG_PER_LB, roundTo } from '@rpm/contracts';
import { runMigrations } from '../src/db/migrate.ts';
import { insertDevice } from '../src/modules/devices/devices.repository.ts';
import { insertSource } from '../src/modules/ingestion/ingestion-sources.repository.ts';
import { hashSecret, newSourceSecret } from '../src/modules/ingestion/source-secret.ts';
import { setPatientPrograms } from '../src/modules/programs/programs.repository.ts';
import { checkStaleData } from '../src/modules/alerts/alerts.stale.ts';
import { createBenchDatabase, startBenchApp, stats } from './bench-support.ts';
import {
  DAYS,
  DEVICE_TYPE,
  generate,
  HOUR,
  LABELS,
  prng,
  PROGRAM,
  type Patient,
  type Reading,
  type Route,
} from './bench-alert-burden.cohort.ts';
import { demo } from './bench-alert-burden.demo.ts';
import { fhirObservation } from './bench-alert-burden.fhir.ts';

/** Patient-days of alerts the controlled group may cost, per 100 (the burden target). */
const CONTROLLED_TARGET = 1;
/** Readings sent together: a webhook call of several measurements, Bundles of up to 500 entries. */
const WEBHOOK_BATCH = 25;
/** Readings are sent window by window of simulated time, so that each request carries its hours' readings. */
const WINDOW = 4 * HOUR;

async function cohort() {
  const perLabel = Number(process.env.BENCH_PATIENTS_PER_LABEL ?? 20);
  const rnd = prng(Number(process.env.BENCH_SEED ?? 20_240_601));
  const started = performance.now();
  const { pool, drop } = await createBenchDatabase(6, { embedded: true });
  let close: (() => Promise<void>) | undefined;
  try {
    await runMigrations(pool);
    const now = Date.now();
    const org = (
      await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Burden Clinic') RETURNING id`)
    ).rows[0]!.id;
    const source = async (kind: 'tenovi' | 'fhir') => {
      const id = randomUUID();
      const secret = newSourceSecret(id);
      await insertSource(pool, {
        id,
        name: `burden ${kind}`,
        kind,
        authHeader: kind === 'tenovi' ? DEFAULT_INGEST_AUTH_HEADER : null,
        canRead: false,
        secretHash: hashSecret(secret),
        createdBy: null as unknown as number,
        organizationId: org,
        expiresAt: null,
      });
      return { id, secret };
    };
    const tenovi = await source('tenovi');
    const fhir = await source('fhir');

    // --- patients, programs, devices -----------------------------------------------------
    const patients: Patient[] = [];
    const readings: Reading[] = [];
    for (const label of LABELS) {
      for (let n = 0; n < perLabel; n++) {
        const { rows } = await pool.query<{ id: number }>(
          `INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm, enrollment_status, created_at)
           VALUES ($1, $2, $3, true, 'Active', now() - interval '40 days') RETURNING id`,
          [`${label}`, `Burden ${n + 1}`, org],
        );
        const patient: Patient = {
          label,
          n,
          id: rows[0]!.id,
          route: n % 2 ? 'fhir' : 'tenovi',
          devices: {},
          events: [],
        };
        await setPatientPrograms(pool, patient.id, [PROGRAM[label]]);
        const generated = generate(patient, rnd, now);
        for (const kind of new Set(generated.map((r) => r.kind))) {
          const deviceId = `BURDEN-${label}-${n + 1}-${DEVICE_TYPE[kind]}`;
          const device = await insertDevice(pool, { deviceId, model: 'Burden', type: DEVICE_TYPE[kind] });
          await pool.query(`UPDATE devices SET patient_id = $1 WHERE id = $2`, [patient.id, device!.id]);
          patient.devices[kind] = deviceId;
        }
        patients.push(patient);
        readings.push(...generated);
      }
    }
    // Assignments open when the device is given; the readings reach back 30 days.
    await pool.query(
      `UPDATE device_assignments SET assigned_from = now() - interval '40 days' WHERE assigned_to IS NULL`,
    );

    // --- sending -------------------------------------------------------------------------
    const app = await startBenchApp(pool);
    close = app.close;
    const base = app.config.publicUrl;
    const index = new Map<string, number>();
    const requestMs: Record<Route, number[]> = { tenovi: [], fhir: [] };
    let notStored = 0;

    const tenoviMeasurements = (r: Reading) => {
      const device = r.patient.devices[r.kind]!;
      const measurementIndex = (index.get(device) ?? 0) + 1;
      index.set(device, measurementIndex);
      const common = {
        hwi_device_id: device,
        timestamp: new Date(r.at).toISOString(),
        filter_params: { measurement_index: measurementIndex },
      };
      const one = (metric: string, value_1: number, value_2: number | null = null) => ({
        ...common,
        metric,
        value_1,
        value_2,
      });
      switch (r.kind) {
        case 'blood_pressure':
          return [one('blood_pressure', r.values[0]!, r.values[1]!), one('pulse', r.values[2]!)];
        case 'weight':
          return [one('weight', roundTo(r.values[0]! / KG_PER_LB, 1))];
        case 'glucose':
          return [one('glucose', r.values[0]!)];
        case 'spo2':
          return [one('spO2', r.values[0]!)];
        case 'temperature':
          return [one('temperature', roundTo((r.values[0]! * 9) / 5 + 32, 1))];
      }
    };

    const sendTenovi = async (batch: Reading[]) => {
      if (batch.length === 0) return;
      const body = JSON.stringify(batch.flatMap(tenoviMeasurements));
      const t = performance.now();
      const res = await fetch(`${base}/api/ingest/tenovi/${tenovi.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: tenovi.secret },
        body,
      });
      const answer = (await res.json()) as { stored?: number };
      requestMs.tenovi.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${JSON.stringify(answer)}`);
      // A cuff's pulse is stored with its pressure: one row per reading.
      notStored += Math.max(0, batch.length - (answer.stored ?? 0));
    };
    const sendFhir = async (batch: Reading[]) => {
      if (batch.length === 0) return;
      const entry = batch.map((r) => ({
        request: { method: 'POST', url: 'Observation' },
        resource: fhirObservation(r),
      }));
      const t = performance.now();
      const res = await fetch(`${base}/fhir/R4`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${fhir.secret}` },
        body: JSON.stringify({ resourceType: 'Bundle', type: 'batch', entry }),
      });
      const answer = (await res.json()) as { entry?: { response?: { status?: string } }[] };
      requestMs.fhir.push(performance.now() - t);
      if (res.status !== 200)
        throw new Error(`FHIR Bundle answered ${res.status}: ${JSON.stringify(answer).slice(0, 500)}`);
      notStored += batch.length - (answer.entry?.filter((e) => e.response?.status?.startsWith('201')).length ?? 0);
    };
    const send = (route: Route, batch: Reading[]) => (route === 'tenovi' ? sendTenovi(batch) : sendFhir(batch));

    // A critical alert counts as "in the reading's transaction" when, right after the request
    // returned, one is open that was not critical before it (new, or raised in severity).
    const criticalIds = async (patientId: number) =>
      (
        await pool.query<{ id: number; first_at: Date }>(
          `SELECT id, first_at FROM alerts WHERE patient_id = $1 AND severity = 'critical' AND status <> 'resolved'`,
          [patientId],
        )
      ).rows;
    const sendCritical = async (r: Reading) => {
      const before = new Set((await criticalIds(r.patient.id)).map((a) => a.id));
      await send(r.patient.route, [r]);
      const after = await criticalIds(r.patient.id);
      r.critical!.inTransaction = after.some(
        (a) => !before.has(a.id) || a.first_at.getTime() >= r.critical!.from - 1000,
      );
    };

    readings.sort((a, b) => a.at - b.at);
    const sendStart = performance.now();
    const pending: Record<Route, Reading[]> = { tenovi: [], fhir: [] };
    const limit: Record<Route, number> = { tenovi: WEBHOOK_BATCH, fhir: FHIR_BUNDLE_MAX_ENTRIES };
    const flush = async () => {
      // Each patient sends through one route only: flushing one route before the other keeps every patient's order.
      for (const route of ['tenovi', 'fhir'] as const) {
        await send(route, pending[route]);
        pending[route] = [];
      }
    };
    let windowEnd = (readings[0]?.at ?? now) + WINDOW;
    for (const r of readings) {
      if (r.at >= windowEnd) {
        await flush();
        while (r.at >= windowEnd) windowEnd += WINDOW;
      }
      if (r.critical) {
        await flush();
        await sendCritical(r);
        continue;
      }
      pending[r.patient.route].push(r);
      if (pending[r.patient.route].length >= limit[r.patient.route]) {
        await send(r.patient.route, pending[r.patient.route]);
        pending[r.patient.route] = [];
      }
    }
    await flush();
    const sendSeconds = (performance.now() - sendStart) / 1000;
    // The stale-data check is a scheduled job: run once, now, as its schedule would at some point.
    await checkStaleData(pool);

    // --- what was raised ----------------------------------------------------------------
    // alerts.created_at comes with the rewrite of the rules; before it the column is absent.
    const hasCreatedAt =
      (
        await pool.query(
          `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'alerts' AND column_name = 'created_at'`,
        )
      ).rowCount === 1;
    const { rows: alerts } = await pool.query<{
      patient_id: number;
      rule: string;
      severity: string;
      status: string;
      first_at: Date;
      created_at: Date | null;
    }>(
      `SELECT patient_id, rule, severity, status, first_at, ${hasCreatedAt ? 'created_at' : 'NULL::timestamptz AS created_at'}
         FROM alerts WHERE patient_id = ANY($1::int[]) ORDER BY first_at`,
      [patients.map((p) => p.id)],
    );
    const stored = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM observations`)).rows[0]!.n;

    const out: string[] = [];
    const say = (line = '') => {
      out.push(line);
      console.log(line);
    };
    say(
      `Cohort: ${patients.length} patients (${perLabel} per label), ${readings.length} readings sent in ` +
        `${requestMs.tenovi.length} webhook calls and ${requestMs.fhir.length} FHIR Bundles over ${sendSeconds.toFixed(0)} s; ` +
        `${stored} stored, ${notStored} not stored. Request median: webhook ${median(requestMs.tenovi).toFixed(0)} ms, ` +
        `Bundle ${median(requestMs.fhir).toFixed(0)} ms.`,
    );
    say(
      `"high/critical" = every severity other than 'info'; delays are simulated time, from the event's first reading to the alert's first_at.`,
    );
    say();
    const header = [
      'label'.padEnd(22),
      'pts'.padStart(4),
      'pt-days'.padStart(8),
      'alerts'.padStart(7),
      'hi/crit'.padStart(8),
      '/100 pt-d'.padStart(10),
      'events'.padStart(7),
      'alerted'.padStart(8),
      'delay median'.padStart(13),
      'delay max'.padStart(10),
      'crit in tx'.padStart(11),
      '  rules',
    ];
    say(header.join(''));
    let missed = 0;
    let totalEvents = 0;
    let controlledRate = 0;
    for (const label of LABELS) {
      const group = patients.filter((p) => p.label === label);
      const ids = new Set(group.map((p) => p.id));
      const mine = alerts.filter((a) => ids.has(a.patient_id));
      const high = mine.filter((a) => a.severity !== 'info');
      const patientDays = group.length * DAYS;
      const rate = (100 * high.length) / patientDays;
      if (label === 'controlled') controlledRate = rate;
      const rules = new Map<string, number>();
      for (const a of mine) rules.set(`${a.rule}/${a.severity}`, (rules.get(`${a.rule}/${a.severity}`) ?? 0) + 1);
      let events = 0;
      let alerted = 0;
      const delays: number[] = [];
      let critical = 0;
      let criticalInTx = 0;
      for (const p of group) {
        for (const e of p.events) {
          events++;
          const answer = alerts.find(
            (a) =>
              a.patient_id === p.id &&
              (e.anySeverity || a.severity !== 'info') &&
              (!e.critical || a.severity === 'critical') &&
              a.first_at.getTime() >= e.from - 1000,
          );
          if (e.critical) {
            critical++;
            if (e.inTransaction) criticalInTx++;
          }
          if (answer || e.inTransaction) {
            alerted++;
            if (answer) delays.push(Math.max(0, answer.first_at.getTime() - e.at) / HOUR);
          }
        }
      }
      totalEvents += events;
      missed += events - alerted;
      const hours = (h: number | undefined) =>
        h === undefined ? '–' : h < 1 ? `${Math.round(h * 60)} min` : `${h.toFixed(1)} h`;
      // The stale check ran once, at the end: its delay says when the bench ran it, not how soon the job would.
      const delayNote = label === 'drawer';
      say(
        [
          label.padEnd(22),
          String(group.length).padStart(4),
          String(patientDays).padStart(8),
          String(mine.length).padStart(7),
          String(high.length).padStart(8),
          rate.toFixed(2).padStart(10),
          String(events).padStart(7),
          String(alerted).padStart(8),
          (delayNote ? 'n/a*' : hours(delays.length ? median(delays) : undefined)).padStart(13),
          (delayNote ? 'n/a*' : hours(delays.length ? Math.max(...delays) : undefined)).padStart(10),
          (critical ? `${criticalInTx}/${critical}` : '–').padStart(11),
          `  ${[...rules].map(([r, c]) => `${r} ${c}`).join(', ') || '–'}`,
        ].join(''),
      );
    }
    say(`* the stale-data job ran once after all readings were in; its delay is the bench's, not the schedule's.`);
    say();
    say(`TARGET every true event alerted: ${missed === 0 ? 'yes' : 'NO'} (${totalEvents - missed} of ${totalEvents})`);
    say(
      `TARGET controlled ≤ ${CONTROLLED_TARGET} high/critical alert per 100 patient-days: ` +
        `${controlledRate <= CONTROLLED_TARGET ? 'yes' : 'NO'} (${controlledRate.toFixed(2)})`,
    );
    say(
      `seed ${process.env.BENCH_SEED ?? 20_240_601}; whole run ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')} on ${os.cpus().length} CPUs`,
    );
  } finally {
    await close?.().catch(() => {});
    await drop();
  }
}

const median = (xs: number[]) => (xs.length ? stats(xs).median : NaN);

// Last: the constants above must be initialised before either runs.
if (process.argv.includes('--demo')) await demo();
else await cohort();
