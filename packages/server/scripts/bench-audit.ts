/**
 * Measures audit-log paging on a large log. Creates a scratch database on the server named by
 * DATABASE_URL, migrates it, fills audit_logs with BENCH_ROWS rows (default 1,000,000) and times
 * the queries GET /api/audit-logs runs, at shallow and deep offsets. Drops the database at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ROWS=2000000 npx tsx scripts/bench-audit.ts
 *
 * The hash-chain trigger is switched off in the scratch database only and the chain's positions
 * are filled in bulk: linking millions of rows one by one measures the chain, not paging.
 *
 * Measured on the 2-core development machine (PostgreSQL 15), 10,000,000 rows, median of 5:
 *
 *   total (max position)            1.2 ms     count(*) for comparison          630 ms
 *   page of 10 at offset 0          1.0 ms     page of 100 at offset 0          2.6 ms
 *   page of 10 at offset 5,000,000  1.7 ms     page of 100 at offset 5,000,000  2.4 ms
 *   page of 10 at the very end      1.1 ms     offset past the end (empty)      0.9 ms
 *   plain LIMIT/OFFSET paging: 1,058 ms at offset 5,000,000 and 2,204 ms at the end.
 */
import { runMigrations } from '../src/db/migrate.ts';
import { auditLogTotal, listAuditLogPage } from '../src/modules/audit/audit.repository.ts';
import { createBenchDatabase } from './bench-support.ts';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const { pool, drop } = await createBenchDatabase(2);

async function time<T>(fn: () => Promise<T>, runs = 5): Promise<{ ms: number; value: T }> {
  let value!: T;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)]!, value }; // median
}

try {
  await runMigrations(pool);
  // Links are made below in bulk, not through the sealer's queue.
  await pool.query('ALTER TABLE audit_logs DISABLE TRIGGER audit_logs_enqueue');
  const t0 = performance.now();
  const batch = 250_000;
  for (let start = 0; start < rows; start += batch) {
    await pool.query(
      `INSERT INTO audit_logs ("timestamp", user_id, ip_address, action, resource_type, resource_id, details,
                               target_user_id, outcome, user_agent, request_id)
       SELECT timestamptz '2025-01-01' + g * interval '3 seconds', 1 + g % 50, '10.0.' || (g % 255) || '.1',
              (ARRAY['patient.read','patient.update','auth.token_exchange','note.create'])[1 + g % 4],
              'patient', (g % 5000)::text, jsonb_build_object('fields', jsonb_build_array('first_name')),
              NULL, 'success', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140', gen_random_uuid()::text
         FROM generate_series($1::int, $2::int) g`,
      [start + 1, Math.min(start + batch, rows)],
    );
  }
  // The chain links in bulk: positions as the sealer would number them. Their hashes are
  // placeholders: this measures paging, which reads positions, not hashes.
  await pool.query(
    `INSERT INTO audit_chain (log_id, prev_hash, hash, position)
     SELECT id, '\\x'::bytea, '\\x'::bytea, row_number() OVER (ORDER BY id) FROM audit_logs`,
  );
  const insertS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  await pool.query('VACUUM ANALYZE audit_logs');
  await pool.query('VACUUM ANALYZE audit_chain');
  const vacuumS = (performance.now() - t1) / 1000;
  const size = await pool.query<{ table: string; index: string }>(
    `SELECT pg_size_pretty(pg_table_size('audit_logs') + pg_table_size('audit_chain')) AS table,
            pg_size_pretty(pg_indexes_size('audit_logs') + pg_indexes_size('audit_chain')) AS index`,
  );
  console.log(`rows: ${rows.toLocaleString('en')}; insert ${insertS.toFixed(1)} s; vacuum analyze ${vacuumS.toFixed(1)} s; tables ${size.rows[0]!.table}, indexes ${size.rows[0]!.index}`);

  const total = await time(() => auditLogTotal(pool));
  const count = await time(() => pool.query<{ n: number }>('SELECT count(*)::bigint AS n FROM audit_logs'), 3);
  console.log(`total (max position): ${total.value.toLocaleString('en')} in ${total.ms.toFixed(2)} ms; count(*) for comparison: ${count.value.rows[0]!.n.toLocaleString('en')} in ${count.ms.toFixed(1)} ms`);

  const offsets = [0, 1_000, 100_000, Math.floor(rows / 2), rows - 10, rows + 100];
  for (const limit of [10, 100]) {
    for (const offset of offsets) {
      const r = await time(() => listAuditLogPage(pool, limit, offset));
      console.log(`page limit ${limit} offset ${offset.toLocaleString('en').padStart(11)}: ${String(r.value.length).padStart(3)} rows in ${r.ms.toFixed(2)} ms`);
    }
  }
  // For comparison: plain OFFSET paging, which walks past every skipped row.
  for (const offset of [Math.floor(rows / 2), rows - 10]) {
    const r = await time(
      () => pool.query(`SELECT * FROM audit_logs ORDER BY "timestamp" DESC, id DESC LIMIT 10 OFFSET $1`, [offset]),
      3,
    );
    console.log(`plain OFFSET ${offset.toLocaleString('en')}: ${r.ms.toFixed(1)} ms`);
  }
} finally {
  await drop();
}
