import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { withTransaction } from './pool.ts';
import { codegenArgs } from './codegen-args.ts';
import { kysely } from './kysely.ts';
import { buildOrganization } from '../../test/support/factories.ts';

const codegenBin = createRequire(import.meta.url).resolve('kysely-codegen/dist/cli/bin.js');
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('typed query layer', () => {
  it('has table types generated from the migrated schema as it is today', () => {
    // kysely-codegen --verify exits non-zero when a migration changed the schema and
    // `npm run db:types -w packages/server` was not run.
    let outOfDate = false;
    try {
      execFileSync(process.execPath, [codegenBin, ...codegenArgs(db.ownerUrl), '--verify'], { cwd: serverDir, stdio: 'pipe' });
    } catch {
      outOfDate = true; // the command line names the database URL, so it is not repeated here
    }
    expect(outOfDate, 'src/db/types.ts is out of date: run npm run db:types -w packages/server').toBe(false);
  });

  it('runs a repository query inside the caller’s transaction, which rolls back with it', async () => {
    const name = `Rolled back ${Date.now()}`;
    await expect(
      withTransaction(db.pool, async (tx) => {
        await buildOrganization(tx, { name });
        const seen = await kysely(tx).selectFrom('organizations').select('id').where('name', '=', name).execute();
        expect(seen).toHaveLength(1);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const after = await kysely(db.pool).selectFrom('organizations').select('id').where('name', '=', name).execute();
    expect(after).toHaveLength(0);
  });
});
