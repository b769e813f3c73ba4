import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import pino from 'pino';
import { buildApp, loggerOptions } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { bootstrapPortal } from './db/bootstrap.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { runMigrations } from './db/migrate.ts';
import { createPool } from './db/pool.ts';
import { assertRestrictedRole, prepareRuntimeRole } from './db/runtime-role.ts';
import { loadPortalKeys, type PortalKeys } from './keys.ts';
import { batchedDestination } from './plugins/log-destination.ts';
import { identitySettingsOf, provisionFirstAdmin, type Identity } from './modules/identity/index.ts';
import { createPortalIdentity } from './identity-wiring.ts';
import { checkDatabase } from './modules/health/index.ts';

/** How long SIGTERM waits for requests in progress before closing the database anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** One clear line per problem and exit 1: an operator should never have to read a stack trace. */
function fail(lines: string[]): never {
  for (const line of lines) process.stderr.write(`rpm-portal: ${line}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.problems.map((p) => `configuration error: ${p}`));
    throw err;
  }
  // Log lines are written off the request's path, in batches (plugins/log-destination.ts); pino
  // flushes what is pending when the process exits.
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions, batchedDestination(1));

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        log: (m) => log.info(m),
      });
    } catch (err) {
      // The first line only: the package appends the whole initdb output to its errors.
      const reason = (err as Error).message.split('\n')[0];
      fail([`could not start the embedded PostgreSQL in ${config.dataDir}: ${reason}`]);
    }
    databaseUrl = embedded.url;
    log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
  }

  let keys: PortalKeys;
  try {
    keys = await loadPortalKeys(config, { create: true, log: (m) => log.info(m) });
  } catch (err) {
    await embedded?.stop().catch(() => {});
    fail([`cannot load the portal's keys: ${(err as Error).message}`]);
  }

  // The owner runs the migrations and prepares the runtime role; requests never use it.
  const owner = createPool(databaseUrl, 2);
  // Filled in as start-up proceeds; shutdown closes whatever has started by then.
  const running: { identity?: Identity; app?: FastifyInstance; pool?: pg.Pool } = {};
  let shuttingDown = false;
  const shutdown = async (signal: string, code = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, 'shutting down: no new connections, finishing the requests in progress');
    // close() stops accepting and waits for the requests in progress; a stuck one gets 10 s.
    const closed = running.app?.close().catch(() => {});
    const deadline = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), SHUTDOWN_GRACE_MS).unref(),
    );
    if ((await Promise.race([closed, deadline])) === 'timeout') {
      log.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'requests still running after the grace period: closing anyway');
    }
    await running.identity?.close().catch(() => {});
    await running.pool?.end().catch(() => {});
    await owner.end().catch(() => {});
    await embedded?.stop().catch((err: Error) => log.error({ err }, 'embedded PostgreSQL did not stop cleanly'));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await checkDatabase(owner);
  } catch (err) {
    await embedded?.stop().catch(() => {});
    fail([`cannot connect to the database${config.databaseUrl ? ' at DATABASE_URL' : ''}: ${(err as Error).message}`]);
  }

  const applied = await runMigrations(owner);
  if (applied.length) log.info({ applied }, 'migrations applied');
  let runtimeUrl: string;
  try {
    runtimeUrl = await prepareRuntimeRole(owner, { ownerUrl: databaseUrl, runtimeUrl: config.databaseRuntimeUrl, masterKey: keys.masterKey });
  } catch (err) {
    await embedded?.stop().catch(() => {});
    fail([
      `cannot prepare the runtime database role: ${(err as Error).message}`,
      config.databaseRuntimeUrl
        ? 'check that DATABASE_RUNTIME_URL names an existing role other than the owner'
        : 'let the DATABASE_URL user create roles, or create one for the portal and set DATABASE_RUNTIME_URL (README, "Database roles")',
    ]);
  }
  await owner.end();
  const pool = createPool(runtimeUrl);
  running.pool = pool;
  try {
    await assertRestrictedRole(pool);
  } catch (err) {
    await embedded?.stop().catch(() => {});
    fail([`cannot use the runtime database role: ${(err as Error).message}`]);
  }
  const boot = await bootstrapPortal(pool, {
    adminEmail: config.adminEmail,
    organizationName: config.defaultOrganizationName,
  });
  if (boot.created) log.info({ email: config.adminEmail }, 'first start: created the default organization and admin');

  const identity = await createPortalIdentity({
    settings: identitySettingsOf(config),
    db: pool,
    log,
    masterKey: keys.masterKey,
  });
  running.identity = identity;
  // Before listen(): the first admin can sign in from the first request on (the local pool's
  // directory runs in this process).
  await provisionFirstAdmin({ identity, db: pool, log, email: config.adminEmail, password: config.adminPassword });
  const app = await buildApp({ config, pool, identity, logger: log, auditHmacKey: keys.auditHmacKey });
  running.app = app;

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason =
      e.code === 'EADDRINUSE'
        ? `port ${config.port} is already in use (set PORT to another port)`
        : e.code === 'EACCES'
          ? `no permission to listen on port ${config.port}`
          : e.message;
    process.stderr.write(`rpm-portal: cannot start the server: ${reason}\n`);
    await shutdown('listen-failed', 1);
    return;
  }

  const ms = Math.round(performance.now() - startedAt);
  log.info(
    { url: config.publicUrl, startupMs: ms, pool: identity.mode },
    `portal ready at ${config.publicUrl} in ${ms} ms`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`rpm-portal: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
