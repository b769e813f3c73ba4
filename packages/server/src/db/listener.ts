import pg from 'pg';

/** A connection of its own for LISTEN: a pooled one would be handed to other work. */
export const listenerClient = (pool: pg.Pool): pg.Client => new pg.Client(pool.options);

/** Subscribes a listener connection to channels the portal names (constants, never input). */
export async function listen(client: pg.Client, channels: readonly string[]): Promise<void> {
  await client.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
}
