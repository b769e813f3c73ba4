import PgBoss from 'pg-boss';
import type pg from 'pg';

/**
 * How the job queue (pg-boss) sends its SQL: through the portal's pool, so that its connections
 * are the portal's (and its runtime role's). The queue's own statements, not the portal's.
 */
export const jobQueueDatabase = (pool: pg.Pool) => ({
  executeSql: (text: string, values?: unknown[]) => pool.query(text, values),
});

/**
 * A started job queue on the portal's pool (schema installed by the migrations, so it creates
 * nothing), reporting its errors to `onError`.
 */
export async function startJobQueue(pool: pg.Pool, onError: (err: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({ db: jobQueueDatabase(pool), schema: 'pgboss', migrate: false });
  boss.on('error', onError);
  await boss.start();
  return boss;
}
