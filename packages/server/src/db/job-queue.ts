import type pg from 'pg';

/**
 * How the job queue (pg-boss) sends its SQL: through the portal's pool, so that its connections
 * are the portal's (and its runtime role's). The queue's own statements, not the portal's.
 */
export const jobQueueDatabase = (pool: pg.Pool) => ({
  executeSql: (text: string, values?: unknown[]) => pool.query(text, values),
});
