/**
 * `npm run bench`: the portal's two most frequent reads under load, beside what they cannot beat.
 *
 * Starts the built portal (`node packages/server/dist/server.js`, as `npm start` does; the root
 * script builds first when no build exists) on a throw-away database: a scratch database on the
 * server in DATABASE_URL (dropped at the end), else an embedded PostgreSQL in a temporary folder.
 * Loads 1,000,000 readings for one patient and 10,000 patients, signs in ten users (five admins,
 * five providers of the patient's organization; one per connection), and drives with autocannon
 *   GET /api/patients/{id}/vitals?limit=10      and      GET /api/patients?limit=25
 * at a fixed 200 req/s over 10 connections, evenly spaced (p50, p99), and saturated with autocannon
 * (req/s, and the CPU time per request of driver, server and database). Beside them, in the
 * same run and at the same concurrency:
 *   replay  the SQL statements one request of the portal sends (recorded from the same code in
 *           process, names and values included), replayed in order through a `pg` pool, each on
 *           the connections the portal uses for it: its database work with no HTTP, no session
 *           logic, no JSON;
 *   floor   the audited-read floor: one indexed page read and one appended audit row in one
 *           transaction of prepared statements, through `pg`;
 *   bare    bare Fastify answering the same bytes from memory, in its own process;
 *   wrk     the vitals read saturated by wrk (when installed: Debian's package) instead of
 *           autocannon: the driver shares the two cores, and wrk spends a fraction of
 *           autocannon's CPU per request, so its row shows how much of the gap is the driver's.
 * Every case is measured BENCH_RUNS times (default 3) and the median of each figure printed.
 *
 *   npm run bench                                               (embedded PostgreSQL)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *
 * Optional: BENCH_READINGS (1000000), BENCH_PATIENTS (10000), BENCH_SECONDS per measurement (10),
 * BENCH_RUNS (3), BENCH_RATE (200), BENCH_CONNECTIONS (10), BENCH_LOG_LEVEL of the portal (info),
 * BENCH_CASES (all; "vitals,audited": the vitals read, its replay, bare Fastify and the floor).
 * Load generator, portal and database share the machine: on 2 cores they compete for it.
 */
import { spawn } from 'node:child_process';
import { PATIENT_LIST_PAGE_SIZE } from '@rpm/contracts';
import { REPO_ROOT } from '../src/config.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { freePort } from '../src/free-port.ts';
import {
  benchKeys,
  createBenchDatabase,
  fillPatients,
  fillVitals,
  sessionHeadersOf,
  startBenchApp,
  startBuiltPortal,
} from './bench-support.ts';
import {
  cannon,
  CONNECTIONS,
  cpuMsOf,
  drive,
  endedChildrenCpuMs,
  paced,
  RATE,
  SECONDS,
  WRK,
  wrkLoad,
  type Measured,
  type Row,
} from './bench-load.ts';
import { recording, replayer, type Statement } from './bench-replay.ts';

const READINGS = Number(process.env.BENCH_READINGS ?? 1_000_000);
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const USERS = 10;

/**
 * Counts the CPU time spent during `work` by this process (the load driver: autocannon, or the
 * pg client of the replay and floor), by the server process (portal, bare Fastify) and by the
 * database's backends serving the bench database (PostgreSQL on this machine, system or embedded).
 */
async function countingCpu<T extends Measured>(serverPid: number | undefined, work: () => Promise<T>) {
  const backends = async () =>
    (
      await pool.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows.map((r) => r.pid);
  const before = new Map((await backends()).map((pid) => [pid, cpuMsOf(pid)]));
  const self0 = process.cpuUsage();
  const children0 = endedChildrenCpuMs();
  const server0 = serverPid ? cpuMsOf(serverPid) : 0;
  const measured = await work();
  const self = process.cpuUsage(self0);
  // A driver in its own process (wrk) has ended by now: its CPU time is its parent's children's.
  const children = endedChildrenCpuMs() - children0;
  const server = serverPid ? cpuMsOf(serverPid) - server0 : 0;
  let database = 0;
  for (const pid of await backends()) database += cpuMsOf(pid) - (before.get(pid) ?? 0);
  const per = (ms: number) => ms / Math.max(1, measured.count);
  return { measured, cpu: { driver: per((self.user + self.system) / 1000 + children), server: per(server), database: per(database) } };
}

async function measure(
  label: string,
  once: (seconds: number, rate?: number) => Promise<Measured>,
  serverPid: number | undefined,
): Promise<Row> {
  await once(1); // warm-up: connections, prepared statements, caches
  await once(1, RATE); // and the fixed-rate driver's own connections
  const rated = await once(SECONDS, RATE);
  const { measured: saturated, cpu } = await countingCpu(serverPid, () => once(SECONDS));
  process.stdout.write(
    `  ${label.padEnd(32)} p50 ${rated.p50.toFixed(2)} ms, p99 ${rated.p99.toFixed(2)} ms at ${rated.rps.toFixed(0)} req/s; ` +
      `saturated ${saturated.rps.toFixed(0)} req/s, CPU ms/request: driver ${cpu.driver.toFixed(2)}, ` +
      `server ${cpu.server.toFixed(2)}, database ${cpu.database.toFixed(2)}\n`,
  );
  return { rated, saturated, cpu };
}

// ---- bare Fastify ------------------------------------------------------------------------------

/** Fastify in its own process answering `bodies[path]` from memory, as JSON. */
async function startBareFastify(bodies: Record<string, string>) {
  const port = await freePort();
  const script = `
    import Fastify from 'fastify';
    const bodies = JSON.parse(process.env.BENCH_BODIES);
    const app = Fastify({ logger: false });
    app.get('/*', (request, reply) => {
      const body = bodies[request.url];
      if (body === undefined) return reply.code(404).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(body);
    });
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    process.stdout.write('listening\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: `${REPO_ROOT}/packages/server`,
    env: { ...process.env, BENCH_BODIES: JSON.stringify(bodies) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`bare Fastify exited with ${code}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---- the run -----------------------------------------------------------------------------------

const db = await createBenchDatabase(CONNECTIONS + 2, { embedded: true });
const { pool } = db;
const stops: (() => Promise<void>)[] = [];
try {
  await runMigrations(pool);
  const orgs = (
    await pool.query<{ id: number }>(
      `INSERT INTO organizations (name) SELECT 'Bench Clinic ' || g FROM generate_series(1, 5) g RETURNING id`,
    )
  ).rows.map((o) => o.id);
  const orgId = orgs[0]!;
  const users = (
    await pool.query<{ id: number }>(
      `INSERT INTO users (email, role, organization_id)
       SELECT 'bench-' || g || '@example.com', CASE WHEN g % 2 = 0 THEN 'admin' ELSE 'provider' END, $1
         FROM generate_series(1, $2::int) g RETURNING id`,
      [orgId, USERS],
    )
  ).rows.map((u) => u.id);
  const t0 = performance.now();
  await fillPatients(pool, PATIENTS - 1, orgs);
  const patientId = (
    await pool.query<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, organization_id) VALUES ('Many', 'Readings', $1) RETURNING id`,
      [orgId],
    )
  ).rows[0]!.id;
  await fillVitals(pool, patientId, READINGS);
  await pool.query('VACUUM ANALYZE');
  const loadS = (performance.now() - t0) / 1000;
  console.log(
    `loaded ${READINGS} readings for patient ${patientId} and ${PATIENTS} patients in ${loadS.toFixed(1)} s; ` +
      `${RUNS} runs of ${SECONDS} s per measurement, ${CONNECTIONS} connections, fixed rate ${RATE} req/s`,
  );

  const vitalsPath = `/api/patients/${patientId}/vitals?limit=10`;
  const listPath = `/api/patients?limit=${PATIENT_LIST_PAGE_SIZE}`;

  // The statements of one request of each kind, sent by the same code in process. A listener
  // ahead of Fastify's puts a marked request's whole handling (session check included) in the
  // recording's context.
  let pending: Statement[] = [];
  const keys = benchKeys();
  const recorder = await startBenchApp(pool, {
    keys,
    beforeListen: (app) =>
      app.server.prependListener('request', (req: { headers: Record<string, unknown> }) =>
        recording.enterWith(req.headers['x-bench-record'] ? pending : (undefined as unknown as Statement[])),
      ),
  });
  const record = async (path: string, userId: number) => {
    const headers = await recorder.headersOf(userId);
    const url = `${recorder.config.publicUrl}${path}`;
    await (await fetch(url, { headers })).arrayBuffer(); // warm: the steady state is recorded
    pending = [];
    const res = await fetch(url, { headers: { ...headers, 'x-bench-record': '1' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`recording ${path}: ${res.status} ${body}`);
    return { statements: pending, body };
  };
  // A provider of the patient's organization and an admin, as the users are (half and half).
  const vitals = [await record(vitalsPath, users[0]!), await record(vitalsPath, users[1]!)];
  const list = [await record(listPath, users[0]!), await record(listPath, users[1]!)];
  await recorder.close();
  for (const [label, r] of [['observations', vitals[0]!], ['patient list', list[0]!]] as const) {
    console.log(`\none ${label} request sends ${r.statements.length} statements:`);
    for (const st of r.statements) console.log(`  ${st.name ? `[${st.name}] ` : ''}${st.text.replace(/\s+/g, ' ').slice(0, 140)}`);
  }

  const portal = await startBuiltPortal(db.url, { logLevel: process.env.BENCH_LOG_LEVEL ?? 'info', keys });
  stops.push(portal.stop);
  const headers = await Promise.all(users.map((u) => sessionHeadersOf(pool, u)));
  const bare = await startBareFastify({ [vitalsPath]: vitals[1]!.body, [listPath]: list[1]!.body });
  stops.push(bare.stop);

  // The audited-read floor: page and audit row, one transaction, prepared statements.
  const floor = async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query({
        name: 'bench_floor_page',
        text: `SELECT created_at, systolic, diastolic, pulse, source FROM observations
                WHERE patient_id = $1 ORDER BY created_at DESC, id DESC LIMIT 10`,
        values: [patientId],
      });
      await client.query({
        name: 'bench_floor_audit',
        text: `INSERT INTO audit_logs (user_id, action, outcome, resource_type, resource_id, details)
               VALUES ($1, 'vitals.list', 'success', 'patient', $2, $3)`,
        values: [users[0], String(patientId), JSON.stringify({ limit: 10, offset: 0, count: 10 })],
      });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };

  // Fixed rate: evenly spaced requests over kept-alive connections (opened by the warm-up rated
  // second, see measure); saturated: autocannon, or wrk. The driver shares the machine's two cores
  // with the portal and the database, and autocannon's CPU per request is several times wrk's (see
  // the driver column).
  const overHttp =
    (saturate: typeof cannon | typeof wrkLoad = cannon) =>
    (url: string, hdrs: Record<string, string>[]) => {
      const job = paced(url, hdrs);
      return (s: number, r?: number) => (r ? drive(job, s, r) : saturate(url, hdrs, s));
    };
  // label, load, the server process whose CPU is counted (none: the replay and the floor).
  const cases: [string, (seconds: number, rate?: number) => Promise<Measured>, number | undefined][] = [
    ['vitals: portal', overHttp()(`${portal.url}${vitalsPath}`, headers), portal.pid],
    ...(WRK
      ? [['vitals: portal, wrk driving', overHttp(wrkLoad)(`${portal.url}${vitalsPath}`, headers), portal.pid] as (typeof cases)[number]]
      : []),
    ['vitals: replay of its SQL', (s, r) => drive(replayer(pool, vitals.map((v) => v.statements)), s, r), undefined],
    ['vitals: bare Fastify', overHttp()(`${bare.url}${vitalsPath}`, [{}]), bare.pid],
    ['patient list: portal', overHttp()(`${portal.url}${listPath}`, headers), portal.pid],
    ['patient list: replay of its SQL', (s, r) => drive(replayer(pool, list.map((v) => v.statements)), s, r), undefined],
    ['patient list: bare Fastify', overHttp()(`${bare.url}${listPath}`, [{}]), bare.pid],
    ['audited-read floor (pg)', (s, r) => drive(floor, s, r), undefined],
  ];
  // BENCH_CASES: the cases whose label starts with one of these words (say "vitals,audited" for the
  // vitals read, its replay and the floor alone, in half the time).
  const only = process.env.BENCH_CASES?.split(',').map((w) => w.trim()).filter(Boolean);
  if (only?.length) cases.splice(0, cases.length, ...cases.filter(([label]) => only.some((w) => label.startsWith(w))));
  const at = (label: string) => cases.findIndex(([l]) => l === label);
  const runs: Row[][] = [];
  for (let run = 1; run <= RUNS; run++) {
    console.log(`\nrun ${run} of ${RUNS}`);
    const rows: Row[] = [];
    for (const [label, once, pid] of cases) rows.push(await measure(label, once, pid));
    runs.push(rows);
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const med = cases.map((_, i) => ({
    p50: median(runs.map((r) => r[i]!.rated.p50)),
    p99: median(runs.map((r) => r[i]!.rated.p99)),
    rps: median(runs.map((r) => r[i]!.saturated.rps)),
    driver: median(runs.map((r) => r[i]!.cpu.driver)),
    server: median(runs.map((r) => r[i]!.cpu.server)),
    database: median(runs.map((r) => r[i]!.cpu.database)),
  }));
  const pct = (a: number, b: number) => `${Math.round((100 * a) / b)} %`;
  const rpsOf = (i: number) => (i < 0 ? NaN : med[i]!.rps);
  const floorAt = at('audited-read floor (pg)');
  const ratios: Record<number, [string, string]> = {};
  for (const kind of ['vitals', 'patient list']) {
    for (const driver of ['', ', wrk driving']) {
      const portalAt = at(`${kind}: portal${driver}`);
      if (portalAt >= 0) ratios[portalAt] = [pct(med[portalAt]!.rps, rpsOf(floorAt)), pct(med[portalAt]!.rps, rpsOf(at(`${kind}: replay of its SQL`)))];
    }
  }
  console.log(
    `\nmedian of ${RUNS} runs; p50/p99 at ${RATE} req/s, ${CONNECTIONS} connections; saturated: ${CONNECTIONS} connections, no rate;\n` +
      `CPU time per request while saturated, by the load driver (this process: autocannon, or the pg client), the\n` +
      `server process (portal, bare Fastify) and the database's backends (all three share the machine's cores)\n`,
  );
  const head = ['case', `p50 ms`, `p99 ms`, 'saturated req/s', 'portal / floor', 'portal / replay', 'CPU ms/req: driver', 'server', 'database'];
  const lines = cases.map(([label], i) => [
    label,
    med[i]!.p50.toFixed(2),
    med[i]!.p99.toFixed(2),
    med[i]!.rps.toFixed(0),
    ratios[i]?.[0] ?? '',
    ratios[i]?.[1] ?? '',
    med[i]!.driver.toFixed(3),
    med[i]!.server ? med[i]!.server.toFixed(3) : '',
    med[i]!.database.toFixed(3),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const fmt = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ');
  console.log(fmt(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(fmt(l));
  // Each run measures the portal, its replay and the floor a few seconds apart: their ratio per
  // run pairs figures taken under the same load on the machine, which the medians above do not.
  const perRun = (portal: string, other: string) =>
    runs.map((r) => pct(r[at(portal)]?.saturated.rps ?? NaN, r[at(other)]?.saturated.rps ?? NaN)).join(', ');
  console.log(
    `\nper run, saturated: vitals portal / floor ${perRun('vitals: portal', 'audited-read floor (pg)')}; ` +
      `/ replay ${perRun('vitals: portal', 'vitals: replay of its SQL')}` +
      (WRK ? `; driven by wrk / replay ${perRun('vitals: portal, wrk driving', 'vitals: replay of its SQL')}. ` : '. ') +
      `patient list portal / floor ${perRun('patient list: portal', 'audited-read floor (pg)')}; ` +
      `/ replay ${perRun('patient list: portal', 'patient list: replay of its SQL')}`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  await db.drop();
}
