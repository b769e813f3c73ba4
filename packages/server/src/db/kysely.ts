import { Kysely, PostgresDialect, type CompiledQuery, type Transaction } from 'kysely';
import type pg from 'pg';
import { preparedStatementTarget, type Queryable } from './pool.ts';
import type { DB } from './types.ts';

export type { DB } from './types.ts';

/** What a repository runs its queries on: the app's database or one transaction in it. */
export type Executor = Kysely<DB> | Transaction<DB>;

const forPool = new WeakMap<pg.Pool, Kysely<DB>>();
const forClient = new WeakMap<pg.PoolClient, Kysely<DB>>();

/**
 * The typed query layer over a `pg` pool or over one client inside a transaction. Services still
 * open transactions with `withTransaction` (pool.ts) and hand the client to repositories; a
 * repository turns that into a Kysely instance bound to the same connection, so its queries run
 * inside the caller's transaction. One instance is kept per pool and per client.
 */
export function kysely(db: Queryable): Kysely<DB> {
  if (isPoolClient(db)) {
    let k = forClient.get(db);
    if (!k) {
      // The client is already checked out by the caller, who also releases it: handing it to
      // Kysely as a one-connection "pool" whose release does nothing keeps it in that transaction.
      const connection = { query: db.query.bind(db), release: () => {} };
      k = new Kysely<DB>({
        dialect: new PostgresDialect({ pool: { connect: async () => connection, end: async () => {} } }),
      });
      forClient.set(db, k);
    }
    return k;
  }
  let k = forPool.get(db);
  if (!k) {
    k = new Kysely<DB>({ dialect: new PostgresDialect({ pool: db }) });
    forPool.set(db, k);
  }
  return k;
}

// A checked-out client has `release`; a pool does not.
function isPoolClient(db: Queryable): db is pg.PoolClient {
  return typeof (db as Partial<pg.PoolClient>).release === 'function';
}

/** A statement compiled once; each run binds the values of a call in the compiled order. */
export interface Template<P, R> {
  run: (db: Queryable, params: P) => Promise<R[]>;
}

/**
 * Compiles `build` once with a marker object in place of each value, then finds each marker's
 * place among the compiled parameters. Every value must be a parameter (never spliced into the
 * text), which the markers check: an unknown or missing marker fails at the first call.
 */
export function template<P extends object, R>(
  name: string,
  keys: (keyof P & string)[],
  build: (params: P) => CompiledQuery<R>,
): Template<P, R> {
  const markers = new Map(keys.map((k) => [{ templateParameter: k }, k] as const));
  const compiled = build(Object.fromEntries([...markers].map(([marker, k]) => [k, marker])) as P);
  const slots = compiled.parameters.map((value) => {
    const key = markers.get(value as { templateParameter: string } as never);
    if (key === undefined) throw new Error(`${name}: a value of the statement is not one of its parameters (write literals with sql.lit)`);
    return key;
  });
  const unused = keys.filter((k) => !slots.includes(k));
  if (unused.length) throw new Error(`${name}: ${unused.join(', ')} never bound`);
  return {
    run: async (db, params) => {
      const result = await preparedStatementTarget(db).query({ name, text: compiled.sql, values: slots.map((k) => params[k]) });
      return result.rows as R[];
    },
  };
}
