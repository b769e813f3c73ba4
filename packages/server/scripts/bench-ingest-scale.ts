/**
 * Ingestion at a region's scale (`npm run bench:ingest`): the Tenovi webhook, several senders at
 * once, against the floor of the same rows written by COPY into the same tables on the same
 * machine. Three figures, side by side with their targets:
 *
 *   1. floor: the rows one webhook batch of B readings leaves (B observations and the call's
 *      audit record, whose insert queues it for the sealer by trigger) written with
 *      `COPY ... FROM STDIN`, in readings/s, two ways: per batch (one transaction of B readings
 *      each, from BENCH_CONNECTIONS connections at once: what a webhook's answer promises, its
 *      readings committed) and in one transaction (every row at once: no commit per batch);
 *   2. sustained: the real webhook over HTTP (BENCH_SOURCES sources, BENCH_CONNECTIONS
 *      connections, batches of 1, 10 and 100 readings) as fast as it answers, readings/s stored
 *      (counted in the database) and p99 per webhook; target: at least half of the per-batch
 *      floor (the share of the one-transaction floor printed beside it);
 *   3. paced: 1,000 readings/s (batches of BENCH_PACED_BATCH) for BENCH_SECONDS, the webhooks
 *      evenly spaced from a worker thread (bench-ingest-paced.mjs), each one's latency counted from
 *      when it was due; target: p99 per webhook under 100 ms, every request answered 2xx.
 *
 * Each figure is run BENCH_RUNS times (median and range). Readings go to active patients, so every
 * alert rule of a blood pressure is checked, as in a clinic. The load generator runs in a worker
 * thread (autocannon's workers mode) of this process; the portal runs in process, on a scratch
 * database (DATABASE_URL's server when set, otherwise an embedded PostgreSQL, removed after).
 *
 *   npm run bench:ingest   (BENCH_RUNS=3 BENCH_SECONDS=8 BENCH_SOURCES=4 BENCH_CONNECTIONS=8 by default)
 *
 * Measured with BENCH_RUNS=3 BENCH_SECONDS=5 on the shared 2-core development machine while other
 * work ran (load average 7 to 15: each process gets a fraction of a core, so the figures swing by
 * half between runs, and the COPY floor's medians from 6,400 to 16,200 readings/s). Before (the
 * source read on a connection of its own, then BEGIN; the storing statement and the alert check
 * planned anew on every call) and after (the source read with BEGIN in one round trip, the
 * transaction planning generically), alternately in one sitting, three rounds; webhook
 * readings/s stored, median of 3 runs each (share of that run's COPY floor in brackets):
 *
 *                      round 1 before  round 1 after  round 2 before  round 2 after  round 3 before  round 3 after
 *   batch   1             95 (1.1 %)    137 (2.1 %)      67 (0.6 %)    112 (1.1 %)     103 (1.0 %)     93 (0.6 %)
 *   batch  10            538 (6.4 %)    872 (8.7 %)     474 (6.0 %)  1,380 (10.3 %)    524 (5.7 %)    894 (5.5 %)
 *   batch 100        3,880 (45.5 %) 4,800 (64.1 %)  4,080 (49.1 %)  4,720 (29.2 %)  3,220 (41.3 %) 3,840 (26.9 %)
 *   paced p99 (ms)              417            227             338            373             315            306
 *
 * No run kept the paced 1,000 readings/s (500 to 750 stored): the machine had no core to spare.
 * (Those paced figures were taken with autocannon's rate, which sends each second's budget at full
 * speed and then waits, closed-loop: a burst's queue, not a steady rate's, and a slow answer held
 * back the calls behind it without counting their wait. The paced load is now evenly spaced and
 * open-loop, as the HTTP benchmark's fixed rate is, see bench-ingest-paced.mjs.)
 *
 * 2026-11-28, a quiet machine (load average about 1 before each), BENCH_RUNS=3 BENCH_SECONDS=8,
 * alternately in one sitting: before, the script as it was; after, each measurement starting
 * with the tables analyzed (see `drained`). Readings/s stored, median of 3 (share of the floor,
 * p99 per webhook); for the paced run, p99 per webhook (range):
 *
 *                    batch 1              batch 10                batch 100                 paced p99
 *   before, round 1   140 (0.6 %, 109 ms)  1,091 ( 4.7 %, 179 ms)   3,888 (20.2 %, 451 ms)   2,651 (459–3,535) ms
 *   after,  round 1   622 (3.2 %,  31 ms)  4,314 (17.9 %,  41 ms)  14,263 (52.2 %, 113 ms)      28 (17–62) ms
 *   before, round 2   166 (0.8 %,  98 ms)  1,479 ( 6.5 %, 155 ms)   5,988 (23.7 %, 341 ms)   1,278 (720–1,434) ms
 *   after,  round 2   767 (3.4 %,  22 ms)  4,083 (15.4 %,  46 ms)  12,813 (50.2 %, 121 ms)      33 (12–42) ms
 *   after, 1,000      548 (2.8 %,  33 ms)  4,524 (18.4 %,  38 ms)  12,363 (51.6 %, 129 ms)      33 (17–48) ms
 *
 * The two "after" rounds ran with a fleet of 10,000 cuffs (tried, not kept); the last row is the
 * 1,000 of every other row, run right after them. So every earlier figure here measured the portal
 * with plans made for a nearly empty table.
 * 2026-11-28, later (load average about 1.2 before), BENCH_RUNS=3 BENCH_SECONDS=8, with the floor
 * per batch added (4,000 transactions per run at most; both floors median (range), readings/s):
 *
 *              floor per batch          one transaction          webhook                 share (per batch / one)   p99 per webhook
 *   batch   1     603 (592–605)          9,235 (8,495–12,405)       272 (248–274)          45.1 % /  2.9 %            80 ms
 *   batch  10   4,442 (4,041–4,623)     10,746 (10,023–13,381)    2,138 (2,115–2,151)      48.1 % / 19.9 %            77 ms
 *   batch 100  12,180 (10,646–12,832)   10,560 (10,044–13,221)    6,575 (6,375–6,988)      54.0 % / 62.3 %           214 ms
 *   paced 1,000 readings/s: all stored, p99 50 (31–174) ms
 *
 * A COPY of one row is itself an expensive way to store it: the floor per batch of 1 is about a
 * fifteenth of the bulk one. Each such COPY fires the statement triggers of observations (billing
 * months, the per-patient counter, the closed months) for one row, and each transaction commits.
 * What does not depend on the load: a call sends four round trips (BEGIN with the source, store
 * with its audit record, the readings to check with their windows, COMMIT) and plans them once per
 * connection (tenovi-trust.test.ts). Small batches stay far from the floor: each call still
 * pays its own HTTP request, transaction, audit record and synchronous commit, which a COPY of
 * many rows pays once.
 *
 * 2026-11-28, a quiet machine, BENCH_BATCHES=10,1 BENCH_RUNS=3 BENCH_SECONDS=8, alternately in one
 * sitting: before, the windows read as a statement of their own (five round trips); after, read in
 * the readings-to-check statement (four). Webhook readings/s, median of 3 (share of the per-batch
 * floor of the same run):
 *
 *               after            before           after
 *   batch 10    5,309 (45.8 %)   5,316 (46.2 %)   5,150 (44.6 %)
 *   batch  1      751 (44.6 %)     734 (43.0 %)     742 (45.9 %)
 *
 * A round trip less did not show: at these rates the two cores are busy with the statements' own
 * work, not waiting between them. (The same change with the window built as jsonb instead of json
 * was about 6 % slower at batches of 10, in two rounds: 5,330 and 5,301 against 5,643 and 5,641.)
 *
 * Every figure above is too kind. Until the evening of 2026-11-28 the fleet's patients had status
 * Active but were not enrolled in RPM (seedCuffFleet set no enrollment), and the alert rules judge
 * only enrolled patients: each reading's check ended before its rules and its week's window. The
 * fleet is now enrolled, and at a clinic's pace (10,000 cuffs, four readings a day each: see
 * DEVICES). 2026-11-28, quiet machine (load average 0.01 before), BENCH_RUNS=3 BENCH_SECONDS=8,
 * readings/s, median (range):
 *
 *              floor per batch        webhook               share of the floor   p99 per webhook
 *   batch   1    1,051 (961–1,099)       434 (404–472)       41.3 %                44 ms
 *   batch  10    5,649 (5,610–6,159)   2,016 (1,753–2,054)   35.7 %                78 ms
 *   batch 100    9,622 (9,183–11,165)  4,263 (3,738–5,388)   44.3 %               321 ms
 *   paced 1,000 readings/s: all stored, p99 70 (50–105) ms
 *
 * Where a saturated run of batches of 10 spends the two cores (perf, all processes, 5 s): 70 %
 * in PostgreSQL, 26 % in Node (17 % the portal's main thread, 3 % the load generator's worker).
 * Of all the CPU, 38 % runs in the statement triggers of observations (billing months, counters,
 * closed months, foreign keys), which the COPY floor fires too; the storing and checking
 * statements' own plans, their executor start and end, and the commit take about 25 %.
 *
 * Most of that trigger time was one statement planned badly. The billing months' count (migration
 * 1010) joined each month's 31 days to the statement's counted days; PL/pgSQL kept the plan made
 * for the connection's first, small statement, a rescan of the counted days per day of each month,
 * so a call of 100 readings for 100 patients paid 310,000 comparisons. Migration 1090 builds each
 * month from its own days, and 1091 looks the billing starts' patients up by id (their filter's
 * generic plan read every patient). 2026-11-28/29, BENCH_RUNS=3 BENCH_SECONDS=8, before (without
 * the two) and after, alternately in one sitting (load average 1.8 to 3.5 before each side);
 * readings/s, median of 3 (share of the per-batch floor; p50 / p99 per webhook):
 *
 *               before, round 1               after, round 1                before, round 2               after, round 2
 *   batch   1     387 (46.8 %;  20/ 40 ms)     486 (51.3 %;  15/ 35 ms)     502 (60.7 %;  15/ 31 ms)     380 (47.7 %;  20/ 38 ms)
 *   batch  10   2,075 (46.3 %;  36/ 76 ms)   2,289 (46.8 %;  34/ 64 ms)   2,583 (43.4 %;  30/ 61 ms)   2,135 (40.3 %;  36/ 79 ms)
 *   batch 100   2,975 (71.2 %; 265/399 ms)   4,825 (48.5 %; 163/261 ms)   3,163 (56.6 %; 240/417 ms)   4,238 (43.0 %; 180/344 ms)
 *   floor per batch of 100: 4,176 and 5,588 before, 9,955 and 9,850 after
 *
 * Batches of 100 store 40 to 50 % more readings a second, and answer in two thirds of the time;
 * batches of 1 and 10 (few readings per statement, few comparisons) moved within the noise. The
 * share of the floor fell at 100 because the COPY floor fires the same trigger and gained more:
 * a change that makes both cheaper lowers the ratio when the webhook's own work stays.
 *
 * 2026-11-29, the same code, on a day when the machine did about half the work: the audited-read
 * floor of bench.ts was 1,243 req/s against 2,650 the evening before, and every growth figure
 * took about twice as long. BENCH_RUNS=3 BENCH_SECONDS=8, load average about 1 before; readings/s,
 * median (range):
 *
 *              floor per batch        webhook               share of the floor   p50 / p99 per webhook
 *   batch   1      477 (445–501)         201 (177–204)      42.1 %                38 /  78 ms
 *   batch  10    3,078 (2,864–3,118)   1,286 (1,136–1,336)  41.8 %                60 / 128 ms
 *   batch 100    6,473 (5,686–7,455)   2,763 (2,575–3,038)  42.7 %               283 / 437 ms
 *   paced 1,000 readings/s: all stored, p99 124 (105–166) ms, over the 100 ms target
 *
 * Where a call of 10 readings goes, one call at a time (auto_explain with ANALYZE and triggers,
 * `bench:growth --scale=small`): the storing statement 7.7 ms, of which the billing months'
 * trigger 4.4 ms (its count 1.0, updating the ten month rows 1.9, the starts trigger 1.5) and the
 * statement's own lookups and inserts 1.7 ms; the readings to check 2.4 ms. The trigger is the
 * COPY floor's too. The readings here are dated from 80 days back; until 2026-11-29 that was before
 * the month tables a new database makes, so floor and webhook both wrote into the DEFAULT partition.
 * The bench now makes those months' tables first, as a clinic with that history has them.
 *
 * 2026-11-29 later, with those month tables, on a day when the machine was fast again (audited-read
 * floor 4,936 req/s). BENCH_RUNS=3 and then BENCH_RUNS=5, BENCH_SECONDS=8, back to back;
 * readings/s, median (range), share of the per-batch floor, p50 / p99 per webhook:
 *
 *   3 runs       floor per batch          webhook               share    p50 / p99 ms
 *   batch   1     1,364 (1,251–1,428)       706 (573–744)         51.8 %   10 /  24
 *   batch  10     8,656 (8,141–9,595)     4,893 (4,694–5,194)     56.5 %   15 /  32
 *   batch 100    20,894 (19,799–21,571)   9,188 (8,913–9,675)     44.0 %   85 / 139
 *   5 runs
 *   batch   1     1,888 (1,371–2,063)       895 (726–942)         47.4 %    8 /  19
 *   batch  10     8,762 (7,799–10,306)    4,446 (4,061–4,921)     50.7 %   17 /  36
 *   batch 100    19,464 (18,294–21,195)   9,225 (4,138–9,538)     47.4 %   85 / 146
 *   paced 1,000 readings/s: all stored, p99 44 (19–53) ms and 20 (10–27) ms
 *
 * The share lands on either side of half from one set of runs to the next: the per-batch floor
 * itself moves by up to half between runs (batch 1: 1,371 to 2,063 within the five), far more than
 * the gap to 50 %.
 */
import { once } from 'node:events';
import os from 'node:os';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEFAULT_INGEST_AUTH_HEADER } from '@rpm/contracts';
import { runMigrations } from '../src/db/migrate.ts';
import { ensureMonthlyPartitions } from './bench-growth.generate.ts';
import { hashSecret, newSourceSecret } from '../src/modules/ingestion/source-secret.ts';
import type { Measured } from './bench-load.ts';
import { createBenchDatabase, seedCuffFleet, startBenchApp } from './bench-support.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const senders = Number(process.env.BENCH_SOURCES ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const pacedBatch = Number(process.env.BENCH_PACED_BATCH ?? 10);
const batches = (process.env.BENCH_BATCHES ?? '1,10,100').split(',').map(Number);
const FLOOR_READINGS = Number(process.env.BENCH_FLOOR_READINGS ?? 20_000);
// Transactions of the per-batch floor per run: at batch 1, 4,000 commits (about seven seconds).
const PER_BATCH_FLOOR_TRANSACTIONS = Number(process.env.BENCH_FLOOR_TRANSACTIONS ?? 4_000);
const PACED_RATE = 1000;
// A region's fleet at a clinic's pace: 10,000 cuffs, each reading four times a day (the readings
// of the whole bench spaced STEP_MS apart, each cuff's next one DEVICES readings later). The
// alert check reads each reading's week of readings (the window rules), so the readings per
// patient per day decide what a check costs: with 1,000 cuffs a second apart, a patient's week
// held hundreds of readings by the end of a run, a hundred times what a home cuff sends.
const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const READINGS_PER_DAY = 4;
const STEP_MS = 86_400_000 / (READINGS_PER_DAY * DEVICES);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor((s.length - 1) / 2)]!, min: s[0]!, max: s[s.length - 1]! };
};
const fmt = (xs: number[], digits = 0) => {
  const { median, min, max } = summary(xs);
  return `${median.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
};

const { pool, drop } = await createBenchDatabase(12, { embedded: true });
console.log(`${os.cpus().length} cores; load average before: ${load()}`);
let close: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const org = await seedCuffFleet(pool, DEVICES, 'Active');
  const devices = await pool.query<{ id: number; patient_id: number; device_id: string }>(
    `SELECT id, patient_id, device_id FROM devices ORDER BY id`,
  );

  // New sources for every run: each source's rate limit counts afresh (it is per minute).
  const newSources = async () => {
    const out: { id: string; secret: string }[] = [];
    for (let i = 0; i < senders; i++) {
      const id = crypto.randomUUID();
      const secret = newSourceSecret(id);
      await pool.query(
        `INSERT INTO ingestion_sources (id, name, kind, auth_header, secret_hash, organization_id)
         VALUES ($1, $2, 'tenovi', $3, $4, $5)`,
        [id, `bench ${id.slice(0, 8)}`, DEFAULT_INGEST_AUTH_HEADER, hashSecret(secret), org],
      );
      out.push({ id, secret });
    }
    return out;
  };

  // Every reading of the whole bench a new measurement key: STEP_MS apart from here on, within
  // READING_MAX_AGE_DAYS (90 by default): 2.16 s apart, 80 days hold 3.2 million readings.
  const start = Date.now() - 80 * 86_400_000;
  // Those days' months in month tables, as at a clinic with that history: a new database makes
  // them from its first month on, and the readings would all go to the DEFAULT partition.
  const owner = await pool.connect();
  try {
    await ensureMonthlyPartitions(owner, 'observations', new Date(start), new Date());
  } finally {
    owner.release();
  }
  let n = 0;
  const count = async (table: string) =>
    (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  // The sealer links audit records in the background: each measurement starts with none queued,
  // so that it does not pay for the previous one's.
  const drained = async () => {
    for (let waited = 0; waited < 60_000 && (await count('audit_unsealed')) > 0; waited += 200)
      await new Promise((r) => setTimeout(r, 200));
    // Nor with statistics of a table a fraction of its size. A run writes 50,000 to 150,000 rows
    // in seconds, faster than autovacuum (a minute apart at best) follows; the portal's statements
    // are planned once per connection, and a plan made while the readings' table was nearly empty
    // is replaced only when the table is analyzed. Measured right after the saturated runs, the
    // paced run paid for that: its p50 was either 6 ms or about a second, run by run (p99 71 to
    // 2,972 ms); with the tables analyzed first, p99 15 to 35 ms. Every figure gained (see the top).
    // The plan at fault was the storing statement's lookup of a duplicate's stored reading, which
    // hashed a scan of the whole table (readings.repository.ts). Since it probes the key instead,
    // the script without this ANALYZE gives the same figures as with it (2026-11-28, alternately:
    // batch 100 at 52 and 53 % of the floor and paced p99 26 and 14 ms, against 24 and 20 % and
    // 1,131 and 1,690 ms before that change); the ANALYZE stays, for the statements not yet looked at.
    await pool.query('ANALYZE observations, audit_logs');
  };

  // 1. The floor: the rows of `readings` readings in webhook batches of `batch`, by COPY, over the
  // portal's own connection pool. Two ways, both printed:
  //   bulk:      every row in one transaction (one COPY for the readings, one for the audit rows);
  //   per batch: one transaction per batch (COPY of its readings, COPY of its audit row, COMMIT)
  //              from as many connections at once as the webhook load has. A webhook's 2xx says its
  //              readings are committed, so a batch of 1 costs the database one commit per reading
  //              however it is sent; this is the floor of the same rows stored with that promise.
  const floorSource = (await newSources())[0]!.id;
  const copyRows = (batch: number, readings: number) => {
    const obs: string[] = [];
    const audit: string[] = [];
    for (let i = 0; i < readings; i++) {
      n++;
      const d = devices.rows[n % DEVICES]!;
      const at = new Date(start + n * STEP_MS).toISOString();
      const components = JSON.stringify({ systolic: 110 + (n % 25), diastolic: 70 + (n % 15) });
      obs.push(
        `${d.patient_id}\t${d.id}\t${d.device_id}\t${at}\t${n}\tblood_pressure\t${components}\tmm[Hg]\t\\N\t${floorSource}\n`,
      );
      if (i % batch === 0) {
        const details = JSON.stringify({
          received: batch,
          stored: batch,
          duplicates: 0,
          unmatched: 0,
          rejected: 0,
          organization_id: org,
          patient_ids: [d.patient_id],
        });
        audit.push(
          `\\N\t127.0.0.1\tingest.tenovi\tingestion_source\t${floorSource}\t${details}\tsuccess\tbench\tbench-${n}\n`,
        );
      }
    }
    return { obs, audit };
  };
  // Each COPY's rows in one write: the floor pays no stream machinery per row.
  const copy = async (client: pg.PoolClient, statement: string, rows: string[]) => {
    const stream = client.query(copyFrom(statement));
    stream.end(rows.join(''));
    await finished(stream);
  };
  const copyTransaction = async (client: pg.PoolClient, rows: { obs: string[]; audit: string[] }) => {
    await client.query('BEGIN');
    await copy(
      client,
      `COPY observations (patient_id, device_id, source, created_at, measurement_index, kind, components, unit,
                          irregular_heartbeat, source_id) FROM STDIN`,
      rows.obs,
    );
    await copy(
      client,
      `COPY audit_logs (user_id, ip_address, action, resource_type, resource_id, details, outcome, user_agent,
                        request_id) FROM STDIN`,
      rows.audit,
    );
    await client.query('COMMIT');
  };
  const copyFloor = async (batch: number, readings: number): Promise<number> => {
    const rows = copyRows(batch, readings);
    const client = await pool.connect();
    try {
      const t = performance.now();
      await copyTransaction(client, rows);
      return readings / ((performance.now() - t) / 1000);
    } finally {
      client.release();
    }
  };
  const copyFloorPerBatch = async (batch: number, readings: number): Promise<number> => {
    const transactions = Array.from({ length: Math.ceil(readings / batch) }, () => copyRows(batch, batch));
    const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
    try {
      let next = 0;
      const t = performance.now();
      await Promise.all(
        clients.map(async (client) => {
          while (next < transactions.length) await copyTransaction(client, transactions[next++]!);
        }),
      );
      return (transactions.length * batch) / ((performance.now() - t) / 1000);
    } finally {
      for (const client of clients) client.release();
    }
  };

  const app = await startBenchApp(pool);
  close = app.close;
  const { config } = app;

  interface Run {
    readingsPerSecond: number;
    p50: number;
    p99: number;
    non2xx: number;
    errors: number;
    lost: number;
  }
  const webhook = async (batch: number, opts: { rate?: number; duration: number }): Promise<Run> => {
    const sources = await newSources();
    const before = await count('observations');
    process.env.BENCH_DEVICES = String(DEVICES);
    process.env.BENCH_START = String(start);
    process.env.BENCH_STEP_MS = String(STEP_MS);
    process.env.BENCH_BATCH = String(batch);
    process.env.BENCH_AUTH_HEADER = DEFAULT_INGEST_AUTH_HEADER;
    process.env.BENCH_SOURCES = JSON.stringify(sources);
    process.env.BENCH_OFFSET = String(n);
    if (opts.rate) return pacedWebhook(batch, opts.rate, opts.duration, before);
    const result = await autocannon({
      url: config.publicUrl,
      connections,
      workers: 1,
      duration: opts.duration,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: fileURLToPath(new URL('./bench-ingest-batch-request.cjs', import.meta.url)),
        },
      ],
    });
    const stored = (await count('observations')) - before;
    const ok = result['2xx'];
    // Requests still in flight when the run ended may have stored without being counted as 2xx:
    // `lost` counts only readings answered 2xx and not found.
    n += (result.requests.sent + connections) * batch;
    return {
      readingsPerSecond: stored / opts.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      lost: Math.max(0, ok * batch - stored),
    };
  };
  // The paced load: evenly spaced webhooks from a worker thread (bench-ingest-paced.mjs says why
  // not autocannon's rate). Every call has ended when it reports, so none is in flight.
  const pacedWebhook = async (batch: number, rate: number, duration: number, before: number): Promise<Run> => {
    const worker = new Worker(new URL('./bench-ingest-paced.mjs', import.meta.url), {
      workerData: { url: config.publicUrl, rate, seconds: duration, connections },
    });
    const [result] = (await once(worker, 'message')) as [Measured & { ok: number; non2xx: number; errors: number }];
    await worker.terminate();
    const stored = (await count('observations')) - before;
    n += (result.ok + result.non2xx + result.errors) * batch;
    return {
      readingsPerSecond: stored / duration,
      p50: result.p50,
      p99: result.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      lost: Math.max(0, result.ok * batch - stored),
    };
  };

  // Warm-up: prepared statements on every connection, JIT of the hot path.
  await webhook(10, { duration: 3 });

  const rows: string[] = [];
  const verdicts: boolean[] = [];
  for (const batch of batches) {
    const floor: number[] = [];
    const floorPerBatch: number[] = [];
    for (let r = 0; r < runs; r++) {
      await drained();
      floor.push(await copyFloor(batch, FLOOR_READINGS));
      await drained();
      floorPerBatch.push(
        await copyFloorPerBatch(batch, Math.min(FLOOR_READINGS, batch * PER_BATCH_FLOOR_TRANSACTIONS)),
      );
    }
    const sustained: Run[] = [];
    for (let r = 0; r < runs; r++) {
      await drained();
      sustained.push(await webhook(batch, { duration: seconds }));
    }
    const rate = sustained.map((s) => s.readingsPerSecond);
    const share = summary(rate).median / summary(floorPerBatch).median;
    const bulkShare = summary(rate).median / summary(floor).median;
    verdicts.push(share >= 0.5);
    rows.push(
      `batch ${String(batch).padStart(3)} | COPY floor per batch ${fmt(floorPerBatch).padEnd(22)} in one transaction ${fmt(floor).padEnd(22)} | ` +
        `webhook ${fmt(rate).padEnd(20)} | ${(share * 100).toFixed(1).padStart(5)} % of the per-batch floor (target ≥ 50 %) ` +
        `${share >= 0.5 ? 'met' : 'MISSED'}, ${(bulkShare * 100).toFixed(1)} % of one transaction | ` +
        `p50 ${fmt(sustained.map((s) => s.p50))} ms, p99 ${fmt(sustained.map((s) => s.p99))} ms | ` +
        `non-2xx ${sustained.reduce((a, s) => a + s.non2xx, 0)}, errors ${sustained.reduce((a, s) => a + s.errors, 0)}, ` +
        `answered 2xx but not stored ${sustained.reduce((a, s) => a + s.lost, 0)}`,
    );
    console.log(rows[rows.length - 1]);
  }

  const paced: Run[] = [];
  for (let r = 0; r < runs; r++) {
    await drained();
    paced.push(await webhook(pacedBatch, { rate: PACED_RATE / pacedBatch, duration: seconds }));
  }
  const pacedP99 = summary(paced.map((p) => p.p99)).median;
  const pacedNon2xx = paced.reduce((a, p) => a + p.non2xx + p.errors, 0);
  const pacedLine =
    `paced ${PACED_RATE} readings/s (batches of ${pacedBatch}, ${PACED_RATE / pacedBatch} webhooks/s, ${senders} sources) | ` +
    `stored ${fmt(paced.map((p) => p.readingsPerSecond))} readings/s | p50 ${fmt(paced.map((p) => p.p50))} ms | ` +
    `p99 ${fmt(paced.map((p) => p.p99))} ms (target < 100 ms) ${pacedP99 < 100 && pacedNon2xx === 0 ? 'met' : 'MISSED'} | ` +
    `non-2xx or errors ${pacedNon2xx}`;

  console.log(
    `\nIngestion, ${runs} runs each, median (range); ${senders} sources over ${connections} connections, ${seconds} s per run; ` +
      `COPY floor of ${FLOOR_READINGS} readings per run; load average after: ${load()}`,
  );
  for (const row of rows) console.log(row);
  console.log(pacedLine);
} finally {
  await close?.().catch(() => {});
  await drop();
}
