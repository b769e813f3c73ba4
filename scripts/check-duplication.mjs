#!/usr/bin/env node
/*
 * Copy-paste detection over packages/ (jscpd, settings in .jscpd.json: clones of six or more
 * lines). Fails when there are more than MAX_CLONES, and lists them, so that a new copy is
 * noticed while the old ones are paid down. Part of `npm run lint`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_CLONES = 40;

const root = fileURLToPath(new URL('..', import.meta.url));
const jscpd = path.join(path.dirname(createRequire(import.meta.url).resolve('jscpd/package.json')), 'run-jscpd.js');
const out = mkdtempSync(path.join(tmpdir(), 'jscpd-'));
try {
  execFileSync(
    process.execPath,
    [jscpd, 'packages', '--config', '.jscpd.json', '--reporters', 'json', '--output', out],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const report = JSON.parse(readFileSync(path.join(out, 'jscpd-report.json'), 'utf8'));
  const clones = report.duplicates;
  const where = (f) => `${f.name}:${f.start}-${f.end}`;
  if (clones.length > MAX_CLONES) {
    for (const c of clones) console.error(`  ${c.lines} lines: ${where(c.firstFile)} = ${where(c.secondFile)}`);
    console.error(`copy-paste check: ${clones.length} clones of 6 or more lines, at most ${MAX_CLONES} allowed`);
    process.exit(1);
  }
  console.log(`copy-paste check: ${clones.length} clones of 6 or more lines (at most ${MAX_CLONES})`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
