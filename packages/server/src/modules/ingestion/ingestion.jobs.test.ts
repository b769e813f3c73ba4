import { UNMATCHED_RETENTION_CRON, UNMATCHED_RETENTION_DAYS } from '@rpm/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { startIngestionJobs, UNMATCHED_RETENTION_QUEUE, type IngestionJobs } from './ingestion.jobs.ts';
import { buildUnmatchedReading } from '../../../test/support/factories.ts';

let db: TestDatabase;
const log = pino({ level: 'silent' });
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const unmatched = async () =>
  (
    await db.pool.query<{ device_identifier: string }>(`SELECT device_identifier FROM unmatched_readings ORDER BY 1`)
  ).rows.map((r) => r.device_identifier);

describe('the unmatched-readings retention job', () => {
  it('runs once per run with two instances on one database, as the portal’s runtime role, and deletes only expired readings', async () => {
    for (const [deviceIdentifier, receivedDaysAgo] of [
      ['EXPIRED', UNMATCHED_RETENTION_DAYS + 1],
      ['KEPT', UNMATCHED_RETENTION_DAYS - 1],
    ] as const) {
      await buildUnmatchedReading(db.pool, {
        deviceIdentifier,
        measuredAt: { ago: '40 days' },
        receivedAt: { ago: `${receivedDaysAgo} days` },
        systolic: 120,
        diastolic: 80,
      });
    }
    const instances: IngestionJobs[] = [];
    for (let i = 0; i < 2; i++) {
      instances.push(
        await startIngestionJobs({
          pool: db.pool,
          log,
          retentionDays: UNMATCHED_RETENTION_DAYS,
          pollingIntervalSeconds: 0.5,
        }),
      );
    }
    try {
      const ids = await Promise.all(instances.map((j) => j.requestRetention('run-1')));
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
      const started = Date.now();
      while ((await unmatched()).length > 1 && Date.now() - started < 15_000)
        await new Promise((r) => setTimeout(r, 100));
      expect(await unmatched()).toEqual(['KEPT']);
      // Once: one audit record of the deletion, by the system.
      await new Promise((r) => setTimeout(r, 1000));
      const audit = await db.pool.query(
        `SELECT user_id, ip_address, request_id, details FROM audit_logs WHERE action = 'unmatched.retention'`,
      );
      expect(audit.rows).toHaveLength(1);
      expect(audit.rows[0]).toMatchObject({ user_id: null, ip_address: 'system', details: { deleted: 1 } });
      expect(audit.rows[0].request_id).toMatch(/^job:/);
      const schedule = await db.pool.query('SELECT cron FROM pgboss.schedule WHERE name = $1', [
        UNMATCHED_RETENTION_QUEUE,
      ]);
      expect(schedule.rows).toEqual([{ cron: UNMATCHED_RETENTION_CRON }]);
    } finally {
      for (const j of instances) await j.stop();
    }
  });
});
