/**
 * Measures the FHIR Bulk Data export through the real app: a 1,000-patient RPM program with 90 days
 * of readings (blood pressure twice a day, weight every third day: about 210,000 observations) and
 * a 100-patient program of the same density, generated with SQL (not through the API). Each
 * export is kicked off over HTTP (GET /fhir/R4/Group/org-{id}/$export), polled until its manifest,
 * and timed; while it runs, the app's process memory (RSS and V8 heap used) is sampled every
 * 100 ms, and start, peak and end are printed. The job streams (pages of patients, pages of each
 * patient's readings, NDJSON chunks written as they fill), so the peak should not grow with the
 * program's size: the 100-patient runs are the comparison. After the first large run, every line
 * of every file is downloaded (streamed) and checked against the official FHIR R4 JSON schema.
 *
 *   npm run bench:bulk-export                                   (an embedded PostgreSQL in a temp folder)
 *   DATABASE_URL=postgres://... npm run bench:bulk-export       (a scratch database there)
 *
 * Optional: BENCH_PATIENTS (default 1000), BENCH_SMALL_PATIENTS (default 100), BENCH_DAYS
 * (default 90), BENCH_RUNS (default 3 per size), BENCH_VALIDATE=0 to skip the schema check.
 */
import type pg from 'pg';
import type { BulkExportManifest } from '@rpm/contracts';
import { fhirSchemaErrors } from '../test/fhir-schema.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { createBenchDatabase, seedBenchClinics, startBenchApp, stats } from './bench-support.ts';

const settings = {
  patients: Number(process.env.BENCH_PATIENTS ?? 1000),
  small: Number(process.env.BENCH_SMALL_PATIENTS ?? 100),
  days: Number(process.env.BENCH_DAYS ?? 90),
  runs: Number(process.env.BENCH_RUNS ?? 3),
  validate: process.env.BENCH_VALIDATE !== '0',
};

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

/** A program of `n` enrolled patients of one organization, each with a cuff and `days` of readings. */
async function fillProgram(pool: pg.Pool, organizationId: number, n: number): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO patients (first_name, last_name, date_of_birth, gender, organization_id, enrolled_rpm, enrollment_status)
     SELECT (ARRAY['José','Maria','John','Élodie','Chen','Fatima'])[1 + g % 6], 'Bulk ' || g,
            date '1930-01-01' + (g * 37) % 25000, (ARRAY['male','female','other'])[1 + g % 3],
            $1, true, 'Active'
       FROM generate_series(1, $2::int) g
     RETURNING id`,
    [organizationId, n],
  );
  const ids = rows.map((r) => r.id);
  await pool.query(
    `INSERT INTO devices (device_id, model, type, patient_id)
     SELECT 'BULK-CUFF-' || id, 'BP7', 'blood pressure monitor', id FROM unnest($1::int[]) id`,
    [ids],
  );
  // Blood pressure at 08:00 and 20:00 UTC every day, weight at 07:00 every third day.
  await pool.query(
    `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
     SELECT p, 'BULK-CUFF-' || p, date_trunc('day', now()) - make_interval(days => d) + make_interval(hours => h),
            'blood_pressure',
            jsonb_build_object('systolic', 110 + (p + d * 7) % 50, 'diastolic', 70 + (p + d * 3) % 25, 'pulse', 60 + (p + d) % 30),
            'mm[Hg]'
       FROM unnest($1::int[]) p, generate_series(1, $2::int) d, (VALUES (8), (20)) AS hh(h)`,
    [ids, settings.days],
  );
  await pool.query(
    `INSERT INTO observations (patient_id, created_at, kind, components, unit)
     SELECT p, date_trunc('day', now()) - make_interval(days => d) + interval '7 hours', 'weight',
            jsonb_build_object('weight', 60 + (p % 40) + (d % 5) * 0.1), 'kg'
       FROM unnest($1::int[]) p, generate_series(1, $2::int) d
      WHERE (p + d) % 3 = 0`,
    [ids, settings.days],
  );
  const { rows: counted } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM observations WHERE patient_id = ANY($1::int[])`,
    [ids],
  );
  return counted[0]!.n;
}

interface Sample {
  rss: number;
  heapUsed: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Samples this process's memory every 100 ms until stopped: start, peak and end of each. `live`:
 * a full garbage collection before each sample, so the heap counts only what is still reachable
 * (without it, the heap used includes garbage V8 has not collected yet, which grows with the
 * work done between two major collections rather than with what the export holds).
 */
function sampleMemory(live: boolean) {
  const take = (): Sample => {
    if (live) gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed };
  };
  const start = take();
  const peak = { ...start };
  const timer = setInterval(() => {
    const s = take();
    peak.rss = Math.max(peak.rss, s.rss);
    peak.heapUsed = Math.max(peak.heapUsed, s.heapUsed);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      const end = take();
      peak.rss = Math.max(peak.rss, end.rss);
      peak.heapUsed = Math.max(peak.heapUsed, end.heapUsed);
      return { start, peak, end };
    },
  };
}

/** One export over HTTP, from kick-off to manifest, with the app's memory while it ran. */
async function runExport(baseUrl: string, headers: Record<string, string>, groupId: string, live = false) {
  gc?.();
  const memory = sampleMemory(live);
  const started = performance.now();
  const kick = await fetch(`${baseUrl}/fhir/R4/Group/${groupId}/$export`, {
    headers: { ...headers, prefer: 'respond-async', accept: 'application/fhir+json' },
  });
  if (kick.status !== 202) throw new Error(`kick-off answered ${kick.status}: ${await kick.text()}`);
  const statusUrl = kick.headers.get('content-location')!;
  let manifest: BulkExportManifest;
  for (;;) {
    const res = await fetch(statusUrl, { headers });
    if (res.status === 200) {
      manifest = (await res.json()) as BulkExportManifest;
      break;
    }
    if (res.status !== 202) throw new Error(`status answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    // Poll faster than the advertised Retry-After: the time measured is the export's, not the wait.
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - started;
  return { ms, memory: memory.stop(), manifest };
}

/** Downloads every file (streamed, line by line) and checks each line against the R4 schema. */
async function validateFiles(manifest: BulkExportManifest, headers: Record<string, string>) {
  let lines = 0;
  let invalid = 0;
  const byType: Record<string, number> = {};
  for (const file of manifest.output) {
    const res = await fetch(file.url, { headers });
    if (res.status !== 200 || !res.body) throw new Error(`${file.url} answered ${res.status}`);
    const decoder = new TextDecoder();
    let rest = '';
    let inFile = 0;
    const check = (line: string) => {
      const resource = JSON.parse(line) as { resourceType: string };
      const errors = fhirSchemaErrors(resource);
      if (errors.length > 0 || resource.resourceType !== file.type) {
        invalid++;
        if (invalid <= 3) console.log(`invalid line in ${file.url}: ${errors.join('; ')} ${line.slice(0, 200)}`);
      }
      lines++;
      inFile++;
    };
    for await (const chunk of res.body) {
      rest += decoder.decode(chunk as Uint8Array, { stream: true });
      const parts = rest.split('\n');
      rest = parts.pop()!;
      for (const line of parts) check(line);
    }
    if (rest) check(rest);
    if (inFile !== file.count) throw new Error(`${file.url}: ${inFile} lines, the manifest says ${file.count}`);
    byType[file.type] = (byType[file.type] ?? 0) + inFile;
  }
  return { lines, invalid, byType, files: manifest.output.length };
}

/** The two programs, filled by SQL: answers their organizations and readings. */
async function fillPrograms(pool: pg.Pool, [large, small]: [number, number]) {
  const began = performance.now();
  const readings = {
    large: await fillProgram(pool, large, settings.patients),
    small: await fillProgram(pool, small, settings.small),
  };
  await pool.query('VACUUM ANALYZE');
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  console.log(
    `programs: ${settings.patients} patients / ${readings.large} readings and ${settings.small} patients / ` +
      `${readings.small} readings over ${settings.days} days, filled in ${seconds} s`,
  );
  return readings;
}

const database = await createBenchDatabase(10, { embedded: true });
let app: Awaited<ReturnType<typeof startBenchApp>> | undefined;
try {
  await runMigrations(database.pool);
  const { organizationIds, adminId } = await seedBenchClinics(database.pool);
  const [large, small] = organizationIds as [number, number];
  const { large: largeReadings, small: smallReadings } = await fillPrograms(database.pool, [large, small]);
  app = await startBenchApp(database.pool);
  const headers = await app.headersOf(adminId);
  const base = app.config.publicUrl;

  // A warm-up export, so that the first measured run does not pay for compiling and connecting.
  await runExport(base, headers, `org-${small}`);

  const table: string[] = [];
  const header =
    'program  | sampling | run | time s | RSS start→peak→end MB | heap start→peak→end MB | peak−start RSS / heap MB | resources';
  const row = (label: string, mode: string, run: number, r: Awaited<ReturnType<typeof runExport>>) => {
    const { start, peak, end } = r.memory;
    const resources = r.manifest.output.reduce((n, o) => n + o.count, 0);
    return (
      `${label.padEnd(8)} | ${mode.padEnd(8)} | ${String(run).padStart(3)} | ${(r.ms / 1000).toFixed(1).padStart(6)} | ` +
      `${mb(start.rss)}→${mb(peak.rss)}→${mb(end.rss)}`.padEnd(21) +
      ` | ${`${mb(start.heapUsed)}→${mb(peak.heapUsed)}→${mb(end.heapUsed)}`.padEnd(22)} | ` +
      `${`${mb(peak.rss - start.rss)} / ${mb(peak.heapUsed - start.heapUsed)}`.padEnd(24)} | ${resources}`
    );
  };
  for (const [label, org, readings] of [
    [`${settings.patients} pts`, large, largeReadings],
    [`${settings.small} pts`, small, smallReadings],
  ] as const) {
    const times: number[] = [];
    const rssGrowth: number[] = [];
    const heapGrowth: number[] = [];
    for (let run = 1; run <= settings.runs; run++) {
      const r = await runExport(base, headers, `org-${org}`);
      const { start, peak } = r.memory;
      times.push(r.ms);
      rssGrowth.push(peak.rss - start.rss);
      heapGrowth.push(peak.heapUsed - start.heapUsed);
      table.push(row(label, 'raw', run, r));
      const { manifest } = r;
      if (run === 1 && org === large) {
        const observations = manifest.output.filter((o) => o.type === 'Observation').reduce((n, o) => n + o.count, 0);
        if (observations !== readings) throw new Error(`exported ${observations} observations of ${readings}`);
        console.log(`files: ${manifest.output.map((o) => `${o.url.split('/').at(-1)} (${o.count})`).join(', ')}`);
        if (settings.validate) {
          const checking = performance.now();
          const v = await validateFiles(manifest, headers);
          console.log(
            `schema: ${v.lines} lines in ${v.files} files (${Object.entries(v.byType)
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')}), ${v.invalid} invalid, checked in ${((performance.now() - checking) / 1000).toFixed(1)} s`,
          );
          if (v.invalid > 0) process.exitCode = 1;
        }
      }
    }
    table.push(
      `${label.padEnd(8)} | raw      | median: ${(stats(times).median / 1000).toFixed(1)} s, peak−start RSS ` +
        `${mb(stats(rssGrowth).median)} MB, heap ${mb(stats(heapGrowth).median)} MB`,
    );
    // Once more with a full collection before each sample: what the export keeps reachable.
    if (gc) table.push(row(label, 'live', 1, await runExport(base, headers, `org-${org}`, true)));
  }
  if (!gc) console.log('(run with node --expose-gc, as npm run bench:bulk-export does, for the live-heap rows)');
  console.log(`node ${process.version}, ${settings.runs} runs per program, memory sampled every 100 ms`);
  console.log(header);
  for (const line of table) console.log(line);
} finally {
  await app?.close().catch(() => {});
  await database.drop();
}
