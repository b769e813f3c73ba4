/**
 * Measures one Tenovi webhook call of 500 lone pulses (pulses sent without their blood pressure,
 * the shape of the 11,500-pulse body that once held a connection for 12.5 s): half complete
 * readings stored before, half wait as unmatched. Each run uses new measurement times, so every
 * pulse is real work. Prints each run and the median, with the machine's load average.
 *
 *   npx tsx --conditions=@rpm/source scripts/bench-lone-pulses.ts   (BENCH_RUNS=7 by default)
 *
 * Measured on the shared 2-core development machine while other work ran (load average 9 to 10,
 * about five runnable processes per core), BENCH_RUNS=7:
 *   before (one UPDATE and one INSERT per pulse): median 436 ms, runs 301 to 2,076 ms
 *   after (one statement for all pulses, one for all battery levels): median 51 ms, runs 29 to 126 ms
 */
import os from 'node:os';
import { DEFAULT_INGEST_AUTH_HEADER } from '@rpm/contracts';
import { runMigrations } from '../src/db/migrate.ts';
import { hashSecret, newSourceSecret } from '../src/modules/ingestion/source-secret.ts';
import { createBenchDatabase, startBenchApp, stats } from './bench-support.ts';

const runs = Number(process.env.BENCH_RUNS ?? 7);
const PULSES = 500;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const { pool, drop } = await createBenchDatabase(10, { embedded: true });
let close: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const org = (await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Bench') RETURNING id`))
    .rows[0]!.id;
  const patient = (
    await pool.query<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, organization_id) VALUES ('P', 'Bench', $1) RETURNING id`,
      [org],
    )
  ).rows[0]!.id;
  await pool.query(`INSERT INTO devices (device_id, model, patient_id) VALUES ('PULSE-1', 'BPM', $1)`, [patient]);
  await pool.query(`UPDATE device_assignments SET assigned_from = now() - interval '60 days'`);
  const id = crypto.randomUUID();
  const secret = newSourceSecret(id);
  await pool.query(
    `INSERT INTO ingestion_sources (id, name, kind, auth_header, secret_hash, organization_id)
     VALUES ($1, 'bench', 'tenovi', $2, $3, $4)`,
    [id, DEFAULT_INGEST_AUTH_HEADER, hashSecret(secret), org],
  );
  const app = await startBenchApp(pool);
  close = app.close;
  const url = `${app.config.publicUrl}/api/ingest/tenovi/${id}`;
  const post = async (body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: secret },
      body: JSON.stringify(body),
    });
    const answer = await res.text();
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${answer}`);
  };
  console.log(`${os.cpus().length} cores; load average before: ${load()}`);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    // Minutes apart per run, seconds apart per pulse: all within the last day.
    const t0 = Date.now() - (r + 1) * 3_600_000;
    const at = (i: number) => new Date(t0 + i * 1000).toISOString();
    const bp = (i: number) => ({
      metric: 'blood_pressure',
      hwi_device_id: 'PULSE-1',
      value_1: 120,
      value_2: 80,
      timestamp: at(i),
    });
    // The first half of the pulses find their readings stored; the others wait.
    await post(Array.from({ length: PULSES / 2 }, (_, i) => bp(i)));
    const pulses = Array.from({ length: PULSES }, (_, i) => ({
      metric: 'pulse',
      hwi_device_id: i < PULSES / 2 ? 'PULSE-1' : 'UNKNOWN-CUFF',
      value_1: 60 + (i % 30),
      timestamp: at(i),
    }));
    const t = performance.now();
    await post(pulses);
    times.push(performance.now() - t);
    console.log(`run ${r + 1}: ${times.at(-1)!.toFixed(0)} ms`);
  }
  console.log(
    `${PULSES} lone pulses per call: median ${stats(times).median.toFixed(0)} ms; load average after: ${load()}`,
  );
} finally {
  await close?.();
  await drop();
}
