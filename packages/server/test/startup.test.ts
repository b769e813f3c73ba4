import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

/** Starts the real server entry point and returns what it printed to stderr and its exit code. */
function start(env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--conditions=@rpm/source', '--import', 'tsx', path.join(REPO_ROOT, 'packages/server/src/server.ts')], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr.trim() };
}

describe('start-up with bad settings', () => {
  it('a bad PORT gives one clear line and exit 1, no stack trace', () => {
    const { status, stderr } = start({ PORT: 'eighty' });
    expect(status).toBe(1);
    expect(stderr).toBe('rpm-portal: configuration error: PORT must be a whole number from 0 to 65535 (got "eighty")');
  });

  it('a malformed DATABASE_URL gives one clear line', () => {
    const { status, stderr } = start({ DATABASE_URL: 'mysql://localhost/db' });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^rpm-portal: configuration error: DATABASE_URL must look like postgres:/);
  });

  it('an unreachable DATABASE_URL gives one clear line', () => {
    const { status, stderr } = start({ DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none' });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^rpm-portal: cannot connect to the database at DATABASE_URL: .*ECONNREFUSED/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
