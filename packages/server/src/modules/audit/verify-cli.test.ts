import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { REPO_ROOT } from '../../config.ts';
import { insertAuditLog } from '../../kernel/audit-writer.repository.ts';
import { sealPending } from './sealer.ts';

const key = randomBytes(32);
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  for (let i = 0; i < 5; i++) await insertAuditLog(db.pool, { action: `cli.${i}`, outcome: 'success' });
});
afterAll(async () => db?.drop());

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const cli = path.join(REPO_ROOT, 'packages/server/src/modules/audit/verify-cli.ts');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@rpm/source', '--import', 'tsx', cli, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.ownerUrl, AUDIT_HMAC_KEY: key.toString('hex') },
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    if (e.stderr) process.stderr.write(e.stderr);
    return { code: e.code ?? -1, out: e.stdout ?? '' };
  }
}

describe('npm run audit:verify', () => {
  it('reports unsealed records as information, prints the head once sealed, and checks --expect', async () => {
    const before = await run();
    expect(before.code).toBe(0);
    expect(before.out).toMatch(/5 recent record\(s\) not sealed yet/);

    await sealPending(db.pool, key);
    const sealed = await run();
    expect(sealed.code).toBe(0);
    const head = /chain head: ([0-9a-f]{64}@5)/.exec(sealed.out)?.[1];
    expect(head).toBeDefined();
    expect((await run('--expect', head!)).code).toBe(0);

    // A head recorded later than what the database now holds: the tail was removed.
    const later = await run('--expect', `${'ab'.repeat(32)}@9`);
    expect(later.code).toBe(1);
    expect(later.out).toMatch(/^TRUNCATED: position 9/m);
  }, 60_000);
});
