/**
 * The two billing figures of the growth bench (the month's worklist and last month's report, as an
 * admin seeing every organization) on a database the growth bench kept, so they can be measured
 * again and again, and compared across versions of the code, without generating the data anew:
 *
 *   npm run bench:growth -- --patients=10000 --providers=50 --observations=2000000 --audit=2000000 --system --keep
 *   npm run bench:billing-growth -- --url=postgres://postgres@127.0.0.1:5432/rpm_bench_xxxxxxxx
 *
 * Where the open months' lines are kept, also the read that finds them all stale (5 per run).
 *
 * Flags: --runs=3 --requests=30 --warmup=5; --query='&limit=50' (added to both paths);
 * --sorts (also the worklist sorted by each column the web offers);
 * --profile (also times the parts one by one: the rules' inputs query, the worklist's triage
 * columns for every row, the rules, the serialization).
 *
 * The kept database's identity settings were sealed with keys that left with the process that
 * made them: they are dropped here and made anew (a bench database only), so sessions of this run
 * work; nothing else of the data is changed.
 */
import os from 'node:os';
import { BILLING_WORKLIST_SORTS } from '@rpm/contracts';
import { parseArgs } from 'node:util';
import { billingInputs } from '../src/modules/billing/billing.repository.ts';
import { worklistDetails } from '../src/modules/billing/billing.details.repository.ts';
import { billRow } from '../src/modules/billing/billing.service.ts';
import { monthBounds } from '../src/modules/billing/billing-rules.ts';
import { createPool } from '../src/db/pool.ts';
import { startBenchApp } from './bench-support.ts';

const { values: flags } = parseArgs({
  options: {
    url: { type: 'string' },
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    query: { type: 'string', default: '' },
    profile: { type: 'boolean', default: false },
    sorts: { type: 'boolean', default: false },
  },
});
if (!flags.url) throw new Error('--url=<the kept database> is required');
const RUNS = Number(flags.runs);
const REQUESTS = Number(flags.requests);
const WARMUP = Number(flags.warmup);

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** `prepare` runs before each call, untimed. */
async function measure(
  name: string,
  call: () => Promise<unknown>,
  { prepare = async () => {}, requests = REQUESTS, warmup = WARMUP } = {},
): Promise<void> {
  for (let i = 0; i < warmup; i++) await prepare().then(call);
  const all: number[] = [];
  const medians: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const samples: number[] = [];
    for (let n = 0; n < requests; n++) {
      await prepare();
      const t = performance.now();
      await call();
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    medians.push(at(samples, 0.5));
    all.push(...samples);
  }
  all.sort((a, b) => a - b);
  const f = (ms: number) => ms.toFixed(1);
  console.log(
    `| ${name} | ${RUNS} × ${requests} | ${f(at(all, 0.5))} | ${f(at(all, 0.99))} | ${f(Math.min(...medians))}–${f(Math.max(...medians))} | ${load()} |`,
  );
}

const pool = createPool(flags.url, 10);
await pool.query('DELETE FROM identity.settings');
const admin = await pool.query<{ id: number }>(`SELECT id FROM users WHERE role = 'admin' ORDER BY id LIMIT 1`);
const app = await startBenchApp(pool);
try {
  const headers = await app.headersOf(admin.rows[0]!.id);
  const get = async (path: string) => {
    const res = await fetch(`${app.config.publicUrl}${path}`, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
    return body;
  };
  const d = new Date();
  const thisMonth = d.toISOString().slice(0, 7);
  const lastMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const worklist = `/api/billing/worklist?month=${thisMonth}${flags.query}`;
  const report = `/api/billing?month=${lastMonth}${flags.query}`;
  console.log(
    `load average before: ${load()}; ${(await get(worklist)).length} bytes, ${(await get(report)).length} bytes`,
  );
  console.log('| figure | requests | median ms | p99 ms | range of run medians ms | load average after |');
  console.log('|---|---|---:|---:|---:|---|');
  await measure(`GET ${worklist}`, () => get(worklist));
  await measure(`GET ${report}`, () => get(report));
  // Where the open months' lines are kept (migration 1060): the read that finds every line stale,
  // as the first one after the organization's midnight does. Each such read rewrites every line,
  // so the table is vacuumed before it (untimed), as autovacuum would between two midnights.
  const kept = await pool.query(`SELECT to_regclass('billing_month_lines') IS NOT NULL AS kept`);
  if (kept.rows[0].kept) {
    const prepare = async () => {
      await pool.query('VACUUM billing_month_lines');
      await pool.query('UPDATE billing_month_lines SET fresh_until = now()');
    };
    const few = { prepare, requests: 5, warmup: 1 };
    await measure(`GET ${worklist}, every line stale`, () => get(worklist), few);
    await measure(`GET ${report}, every line stale`, () => get(report), few);
  }
  if (flags.sorts) {
    for (const column of BILLING_WORKLIST_SORTS) {
      const sorted = `${worklist}&sort=${column}&order=${column === 'patient' ? 'asc' : 'desc'}`;
      await measure(`GET ${sorted}`, () => get(sorted));
    }
  }

  if (flags.profile) {
    const { start, end } = monthBounds(thisMonth);
    const inputs = await billingInputs(pool, { monthStart: start, monthEnd: end, organizationId: null });
    const ids = inputs.map((i) => i.patient_id);
    await measure('SQL: billingInputs (all rows)', () =>
      billingInputs(pool, { monthStart: start, monthEnd: end, organizationId: null }),
    );
    await measure('SQL: worklistDetails (all rows)', () => worklistDetails(pool, start, end, ids));
    await measure('SQL: worklistDetails (50 rows)', () => worklistDetails(pool, start, end, ids.slice(0, 50)));
    await measure('JS: the report rules (all rows)', async () => inputs.map((i) => billRow(thisMonth, i)));
    const rows = inputs.map((i) => billRow(thisMonth, i));
    await measure('JS: JSON.stringify of the report rows', async () => JSON.stringify(rows));
  }
} finally {
  await app.close();
  await pool.end();
}
