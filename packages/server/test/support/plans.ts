import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createPool, preparedStatementTarget } from '../../src/db/pool.ts';
import { bloodPressure } from '@rpm/contracts';
import { createTestDatabase, type TestDatabase } from '../db.ts';
import {
  buildManyReadings,
  buildOrganization,
  buildPatient,
  buildStoredReadings,
  type ReadingOptions,
} from './factories.ts';

/**
 * The database of a test of a plan a connection keeps while the month tables of observations grow
 * (opened in beforeAll, dropped in afterAll), and a pool on it of one connection of each kind whose
 * plans are never renewed. Nothing analyzes the month tables during the test: an ANALYZE by
 * autovacuum (on in the embedded server) would do two things the test must not depend on: drop the
 * stale plan itself, and tell the planner that the one grown patient owns nearly every row, so
 * that a seq scan is right.
 */
export function growingTablesDatabase(): {
  readonly db: TestDatabase;
  readonly pool: pg.Pool;
  /** The pool's connections for named statements (preparedStatementTarget). */
  readonly prepared: pg.Pool;
  /**
   * The scenario of such a test: an enrolled patient's `readings` stored, a statement planned once
   * for them on the pool while the month tables are nearly empty (`plan`), then the tables grown
   * by another patient's 20,000 readings, ten seconds apart back from now (a month's first hours),
   * faster than anything analyzes them.
   */
  plannedThenGrown(
    readings: ReadingOptions[],
    plan: (pool: pg.Pool, patient: number, stored: { id: number; at: Date }[]) => Promise<unknown>,
  ): Promise<{ patient: number; other: number; stored: { id: number; at: Date }[] }>;
} {
  let opened: { db: TestDatabase; pool: pg.Pool } | undefined;
  beforeAll(async () => {
    const db = await createTestDatabase();
    await db.ownerPool.query(`
      DO $$ DECLARE t regclass; BEGIN
        FOR t IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'observations'::regclass LOOP
          EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', t);
        END LOOP;
      END $$`);
    opened = { db, pool: createPool(db.url, 1, { planLifetimeMs: Infinity }) };
  });
  afterAll(async () => {
    await opened?.pool.end();
    await opened?.db.drop();
  });
  const get = () => {
    if (!opened) throw new Error('the plan test database is opened in beforeAll');
    return opened;
  };
  return {
    get db() {
      return get().db;
    },
    get pool() {
      return get().pool;
    },
    get prepared() {
      return preparedStatementTarget(get().pool) as pg.Pool;
    },
    async plannedThenGrown(readings, plan) {
      const { db, pool } = get();
      const org = (await buildOrganization(db.pool)).id;
      const patient = await buildPatient(db.pool, {
        organizationId: org,
        enrolledRpm: true,
        enrollmentStatus: 'Active',
      });
      const other = await buildPatient(db.pool, { organizationId: org });
      const stored = await buildStoredReadings(db.pool, patient, readings);
      await plan(pool, patient, stored);
      await buildManyReadings(db.pool, other, { count: 20_000, kind: bloodPressure.kind, every: '10 seconds' });
      return { patient, other, stored };
    },
  };
}

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
export interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'Subplans Removed'?: number;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The tables of `base` (its month tables and default one included) a plan reads whole: what a
 * generic plan made while they were nearly empty must never do, as they grow by the month.
 */
export const seqScanned = (nodes: PlanNode[], base: string): string[] =>
  nodes.flatMap((n) =>
    n['Node Type'] === 'Seq Scan' && n['Relation Name']?.startsWith(base) ? [n['Relation Name']] : [],
  );

/** A value as a SQL literal, for EXECUTE: arrays as array literals, times in ISO form. */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return String(v);
  const scalar = (x: unknown) => (x instanceof Date ? x.toISOString() : String(x));
  // Array elements quoted, so that times and JSON (with their commas and quotes) stay one element.
  const element = (x: unknown) => (x === null || x === undefined ? 'NULL' : `"${scalar(x).replace(/[\\"]/g, '\\$&')}"`);
  const text = Array.isArray(v) ? `{${v.map(element).join(',')}}` : scalar(v);
  return client.escapeLiteral(text);
}

/** A statement as the driver was given it. */
interface Sent {
  name?: string;
  text: string;
  values?: unknown[];
}

/**
 * Runs `send` on a stand-in for one connection of `pool` that records every statement sent, then
 * `explain` on the connection itself, which then goes back to the pool, or is closed when `discard`
 * (a setting or prepared statements left on it). A stand-in rather than the client patched: the
 * typed query layer keeps one instance per client object, bound to the client's query function
 * as it was when first used.
 */
async function recorded<T>(
  pool: pg.Pool,
  send: (client: pg.PoolClient) => Promise<T>,
  explain: (client: pg.PoolClient, sent: Sent[]) => { text: string; values?: unknown[] },
  { setup, discard = false }: { setup?: string; discard?: boolean } = {},
): Promise<{ result: T; nodes: PlanNode[] }> {
  const client = await pool.connect();
  try {
    if (setup) await client.query(setup);
    const sent: Sent[] = [];
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const record = (...args: unknown[]) => {
      const [first, second] = args;
      if (typeof first === 'string') sent.push({ text: first, values: Array.isArray(second) ? second : undefined });
      else if (first && typeof first === 'object' && 'text' in first) sent.push(first as Sent);
      return query(...args);
    };
    const standIn = new Proxy(client, {
      get: (target, prop) => {
        if (prop === 'query') return record;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const result = await send(standIn);
    const explained: pg.QueryResult<{ 'QUERY PLAN': { Plan: PlanNode }[] }> = await client.query(explain(client, sent));
    return { result, nodes: nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan) };
  } finally {
    client.release(discard);
  }
}

/** Runs `send`, then answers what it answered with the plan of a statement it sent. */
type PlanProbe = <T>(
  pool: pg.Pool,
  send: (client: pg.PoolClient) => Promise<T>,
) => Promise<{ result: T; nodes: PlanNode[] }>;

/**
 * Runs `send` on a connection that plans generically, as the portal's connections do (db/pool.ts),
 * and answers what it answered with every node of the generic plan of the first named (prepared)
 * statement it sent, for the values it sent: a plan made before the values are known.
 */
export const genericPlanOf: PlanProbe = (pool, send) =>
  recorded(
    pool,
    send,
    (client, sent) => {
      const statement = sent.find((s) => s.name);
      if (!statement) throw new Error('no named statement was sent');
      const values = (statement.values ?? []).map((v) => literal(client, v)).join(', ');
      return { text: `EXPLAIN (FORMAT JSON) EXECUTE ${statement.name}(${values})` };
    },
    // The connection's plan setting and prepared statements go with it.
    { setup: 'SET plan_cache_mode = force_generic_plan', discard: true },
  );

/**
 * Runs `send` on a connection of `pool` and answers what it answered with every node of the plan
 * PostgreSQL makes, now, for the first statement it sent, with the values it sent.
 */
export const planOf: PlanProbe = (pool, send) =>
  recorded(pool, send, (_client, [statement]) => {
    if (!statement) throw new Error('no statement was sent');
    return { text: `EXPLAIN (FORMAT JSON) ${statement.text}`, values: statement.values };
  });
