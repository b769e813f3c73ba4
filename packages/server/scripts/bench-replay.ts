// The benchmark's replay of a request's SQL: its statements recorded as the pg driver sends them, then sent again.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { PLAN_RENEWAL, preparedStatementTarget } from '../src/db/pool.ts';
// ---- recording the statements of one request -------------------------------------------------

export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}

export const recording = new AsyncLocalStorage<Statement[]>();
const clientQuery = pg.Client.prototype.query;
// Every statement the pg driver sends inside a recorded request, as sent (Kysely, pool.query and
// transactions all end in Client#query).
pg.Client.prototype.query = function recorded(this: pg.Client, ...args: unknown[]) {
  const statements = recording.getStore();
  // A connection's plan renewal (db/pool.ts) may fall in a recorded request: it is the pool's
  // upkeep, once a minute, not the request's work, and is not replayed with every request.
  if (statements && args[0] !== PLAN_RENEWAL) {
    const [first, second] = args;
    if (typeof first === 'string') statements.push({ text: first, values: Array.isArray(second) ? second : undefined });
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as Statement;
      statements.push({ name: q.name, text: q.text, values: q.values ?? (Array.isArray(second) ? second : undefined) });
    }
  }
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/**
 * Replays one recorded request's statements in order, each where the portal sends it: a named
 * (prepared) statement on the pool's prepared connections, any other on the pool (db/pool.ts),
 * taking the recorded requests (a provider's, an admin's) in turn.
 */
export function replayer(pool: pg.Pool, requests: Statement[][]) {
  let next = 0;
  const prepared = preparedStatementTarget(pool);
  return async () => {
    const statements = requests[next++ % requests.length]!;
    for (const s of statements) {
      if (s.name) await prepared.query({ name: s.name, text: s.text, values: s.values });
      else await pool.query({ text: s.text, values: s.values });
    }
  };
}
