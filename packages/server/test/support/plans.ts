import type pg from 'pg';

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
export interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'Subplans Removed'?: number;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** A value as a SQL literal, for EXECUTE: arrays as array literals, times in ISO form. */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return String(v);
  const text = Array.isArray(v) ? `{${v.join(',')}}` : v instanceof Date ? v.toISOString() : String(v);
  return client.escapeLiteral(text);
}

/**
 * Runs `send` on a connection that plans generically, as the portal's connections do (db/pool.ts),
 * and answers what it answered with every node of the generic plan of the first named (prepared)
 * statement it sent, for the values it sent: a plan made before the values are known.
 */
export async function genericPlanOf<T>(
  pool: pg.Pool,
  send: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; nodes: PlanNode[] }> {
  const client = await pool.connect();
  try {
    await client.query('SET plan_cache_mode = force_generic_plan');
    const sent: { name?: string; values?: unknown[] }[] = [];
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: unknown[] };
      if (config && typeof config === 'object' && config.name) sent.push(config);
      return query(...args);
    }) as typeof client.query;
    const result = await send(client);
    const [statement] = sent;
    if (!statement) throw new Error('no named statement was sent');
    const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE ${statement.name}(${(statement.values ?? []).map((v) => literal(client, v)).join(', ')})`,
    );
    return { result, nodes: nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan) };
  } finally {
    // The connection's plan setting and prepared statements go with it.
    client.release(true);
  }
}

/**
 * Runs `send` on a connection of `pool` and answers what it answered with every node of the plan
 * PostgreSQL makes, now, for the first statement it sent, with the values it sent.
 */
export async function planOf<T>(
  pool: pg.Pool,
  send: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; nodes: PlanNode[] }> {
  const client = await pool.connect();
  try {
    const sent: { text: string; values?: unknown[] }[] = [];
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const recorded = (...args: unknown[]) => {
      const [first, second] = args;
      if (typeof first === 'string') sent.push({ text: first, values: Array.isArray(second) ? second : undefined });
      else if (first && typeof first === 'object' && 'text' in first)
        sent.push(first as { text: string; values?: unknown[] });
      return query(...args);
    };
    // A stand-in for the client, not the client patched: the typed query layer keeps one instance
    // per client object, bound to the client's query function as it was when first used.
    const standIn = new Proxy(client, {
      get: (target, prop) => {
        if (prop === 'query') return recorded;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const result = await send(standIn);
    const [statement] = sent;
    if (!statement) throw new Error('no statement was sent');
    const explained = (await query({
      text: `EXPLAIN (FORMAT JSON) ${statement.text}`,
      values: statement.values,
    })) as pg.QueryResult<{
      'QUERY PLAN': { Plan: PlanNode }[];
    }>;
    return { result, nodes: nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan) };
  } finally {
    client.release();
  }
}
