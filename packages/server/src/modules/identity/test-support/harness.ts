import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { createTestDatabase, testKeys, type TestDatabase } from '../../../../test/db.ts';
import { freePort } from '../../../free-port.ts';
import { createIdentity, type Identity, type LocalPoolOptions } from '../index.ts';

/**
 * A real local pool for tests: fresh migrated database, the identity plugin on a Fastify server
 * listening on 127.0.0.1, every log line and every HTTP answer captured for leak checks.
 */
export interface PoolHarness {
  db: TestDatabase;
  identity: Identity;
  app: FastifyInstance;
  publicUrl: string;
  endpoint: string;
  logs: string[];
  answers: string[];
  close(): Promise<void>;
}

export async function startPool(opts: {
  mfa?: 'optional' | 'required';
  options?: LocalPoolOptions;
  db?: TestDatabase;
  /** A restart must find the key the pool was created with. */
  masterKey?: Buffer;
} = {}): Promise<PoolHarness> {
  const db = opts.db ?? (await createTestDatabase());
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
  const identity = await createIdentity({
    settings: { mode: 'local', publicUrl, localMfa: opts.mfa ?? 'optional' },
    db: db.pool,
    log,
    localPoolOptions: opts.options,
    masterKey: opts.masterKey ?? testKeys.masterKey,
  });
  const app: FastifyInstance = Fastify({ loggerInstance: log as FastifyBaseLogger });
  const answers: string[] = [];
  app.addHook('onSend', async (_request, _reply, payload) => {
    if (typeof payload === 'string') answers.push(payload);
    return payload;
  });
  await app.register(identity.plugin!);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    db,
    identity,
    app,
    publicUrl,
    endpoint: `${publicUrl}/cognito`,
    logs,
    answers,
    async close() {
      await app.close();
      await identity.close();
      if (!opts.db) await db.drop();
    },
  };
}

/** A raw Cognito protocol call, for what the clients do not expose. */
export async function callPool(
  endpoint: string,
  op: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${op}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
