import pg from 'pg';

// Return DATE columns as 'YYYY-MM-DD' strings: a calendar date has no time zone, and turning it
// into a JS Date would shift birthdays by a day west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// bigint ids (vitals, audit) fit in a double for any realistic count.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * The pool a statement prepared once (db/kysely.ts `template`) runs on: connections that always
 * plan such statements once, generically, instead of for each call's values.
 */
const preparedPools = new WeakMap<pg.Pool, pg.Pool>();

/**
 * Every connection runs with JIT compilation off. The portal's statements are short OLTP reads and
 * writes; on servers built with LLVM (Debian's, most managed ones) JIT is on by default and kicks
 * in on a statement the planner costs high, such as the billing month's inputs over thousands of
 * patients, where compiling took 80 times as long as running it (960 ms against 12 ms at 50
 * patients; `npm run bench:growth`). The setting travels in the start-up packet.
 */
const CONNECTION_OPTIONS = '-c jit=off';

/**
 * How long a connection keeps its plans. A connection plans each prepared statement once (the hot
 * reads and the webhook's statements, generically) and keeps the plan until a table it reads is
 * analyzed. A plan made while the month's readings table was nearly empty (a new month, a new
 * install) reads all of that table, the cheapest way then, and goes on doing so as the table grows
 * for as long as autovacuum has not analyzed it: a burst of readings outruns it, and a server with
 * autovacuum off never does. The storing statement did this (readings.repository.ts: webhooks of
 * 10 took up to a second); the alert windows' plan is made the same way. So after a minute (half
 * to a whole one, so that a pool's connections do not all replan at once) a connection drops its
 * plans (DISCARD PLANS, before the next caller's first statement, outside any transaction) and
 * plans again for the tables as they are. Cheaper than a new connection: no sign-in to the
 * server, and the statements stay prepared.
 */
const PLAN_LIFETIME_MS = 60_000;
/** The statement that drops a connection's plans: upkeep of the connection, not a caller's work. */
export const PLAN_RENEWAL = 'DISCARD PLANS';

/** Drops each connection's cached plans once they are older than `lifetimeMs` (see PLAN_LIFETIME_MS). */
function renewPlans(pool: pg.Pool, lifetimeMs: number): void {
  const due = new WeakMap<pg.PoolClient, number>();
  const next = () => Date.now() + lifetimeMs * (0.5 + Math.random() / 2);
  pool.on('connect', (client) => due.set(client, next()));
  // 'acquire' comes before the caller has the client: the statement is queued ahead of its own.
  pool.on('acquire', (client) => {
    if (Date.now() < (due.get(client) ?? Infinity)) return;
    due.set(client, next());
    client.query(PLAN_RENEWAL).catch(() => {});
  });
}

export function createPool(
  url: string,
  max = 10,
  { planLifetimeMs = PLAN_LIFETIME_MS }: { planLifetimeMs?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    options: CONNECTION_OPTIONS,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // PostgreSQL plans a named statement for each call's values as long as it expects that to pay
  // off, which a statement with LIMIT and OFFSET parameters always seems to (a generic plan is
  // costed as reading a tenth of the patient's readings): the hottest read of the portal was
  // planned again on every request. Its plan does not depend on the values, so the few prepared
  // statements run on connections of their own that use the generic plan. Only there: the
  // portal's other statements are unnamed, planned once with their values, as before.
  // The setting travels in the connection's start-up packet: no statement before the first.
  const prepared = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    options: `${CONNECTION_OPTIONS} -c plan_cache_mode=force_generic_plan`,
  });
  prepared.on('error', () => {});
  // The pool listens for errors of idle clients only. A checked-out client whose connection is cut
  // (PostgreSQL restarted, a failover) emits 'error' as well as failing its query, and an 'error'
  // nobody listens to ends the process: every request and job in flight would die with it. The
  // query's own failure is what callers handle, and the pool drops the broken client on release.
  for (const p of [pool, prepared]) {
    p.on('connect', (client) => client.on('error', () => {}));
    renewPlans(p, planLifetimeMs);
  }
  preparedPools.set(pool, prepared);
  const endPool = pool.end.bind(pool) as () => Promise<void>;
  pool.end = (async () => {
    await Promise.all([endPool(), prepared.end()]);
  }) as pg.Pool['end'];
  return pool;
}

/** Where a prepared statement runs: a transaction's own client, or the pool's prepared connections. */
export function preparedStatementTarget(db: Queryable): Queryable {
  return db instanceof pg.Pool ? (preparedPools.get(db) ?? db) : db;
}

/** Connections in use and callers waiting, over both of a pool's sets of connections (metrics). */
export function poolUsage(pool: pg.Pool): { inUse: number; waiting: number } {
  const all = [pool, preparedPools.get(pool)].filter((p): p is pg.Pool => p !== undefined);
  return {
    inUse: all.reduce((n, p) => n + p.totalCount - p.idleCount, 0),
    waiting: all.reduce((n, p) => n + p.waitingCount, 0),
  };
}

/**
 * Opens a transaction whose statements use generic plans, as the pool's prepared connections do.
 * A transaction's client comes from the plain pool, where PostgreSQL planned the prepared
 * statements of a hot write anew on every call (the webhook's storing statement and its alert
 * check: 1 to 4 ms of planning each, more than running them). Sent with BEGIN, in the same round
 * trip, and undone at its end.
 */
const BEGIN_GENERIC = 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan';

export interface TransactionOptions {
  /** Plan every statement of the transaction once, generically (see BEGIN_GENERIC). */
  genericPlans?: boolean;
}

/** A transaction opened by beginTransaction; its owner ends it with commit or rollback. */
export interface OpenTransaction<R> {
  client: pg.PoolClient;
  /** What the opening statement answered (nothing without one). */
  rows: R[];
  /** Commits and gives the connection back; on failure rolls back, gives it back and throws. */
  commit: () => Promise<void>;
  /** Rolls back and gives the connection back; does nothing once the transaction has ended. */
  rollback: () => Promise<void>;
}

/**
 * Opens a transaction; `opening`, a statement without parameters, goes with BEGIN in the same
 * round trip (one simple query), so that a caller whose first step is a lookup (the webhook's
 * source) pays no round trip for BEGIN.
 */
export async function beginTransaction<R = never>(
  pool: pg.Pool,
  { genericPlans = false, opening }: TransactionOptions & { opening?: string } = {},
): Promise<OpenTransaction<R>> {
  const client = await pool.connect();
  let ended = false;
  const end = async (statement: 'COMMIT' | 'ROLLBACK') => {
    if (ended) return;
    ended = true;
    try {
      await client.query(statement);
    } catch (err) {
      if (statement === 'COMMIT') await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  };
  try {
    const sent = [genericPlans ? BEGIN_GENERIC : 'BEGIN', ...(opening ? [opening] : [])].join('; ');
    // A simple query of several statements answers one result per statement.
    const results = (await client.query(sent)) as unknown as pg.QueryResult | pg.QueryResult[];
    const last = Array.isArray(results) ? results[results.length - 1] : results;
    return {
      client,
      rows: opening && last ? (last.rows as R[]) : [],
      commit: () => end('COMMIT'),
      rollback: () => end('ROLLBACK').catch(() => {}),
    };
  } catch (err) {
    await end('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** Runs `fn` in one transaction; everything it does commits or rolls back together. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const tx = await beginTransaction(pool, options);
  try {
    const result = await fn(tx.client);
    await tx.commit();
    return result;
  } finally {
    // Nothing once committed; otherwise (fn or COMMIT failed) undoes the transaction.
    await tx.rollback();
  }
}

/** Either a pool or a client inside a transaction: repositories accept both. */
export type Queryable = pg.Pool | pg.PoolClient;
