#!/usr/bin/env node
/*
 * Checks that each concern stays in its one home, where a lint rule cannot say it:
 *   server  access rules (role or organization comparisons) only in policies/;
 *   server  SQL only in repositories, migrations and seed data;
 *   web     calls to the portal API only in src/api/.
 * Usage: node scripts/check-structure.mjs [--report]
 * Without --report it lists every finding as file:line and fails when there is one; with
 * --report it also sums them up by rule and file, and always succeeds (a progress view).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = process.argv.includes('--report');

/** Source files under `dir`, as paths relative to the repository with forward slashes. */
function sourceFiles(dir) {
  const out = [];
  const walk = (abs) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(abs, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

const isTest = (file) => /\.test\.(ts|tsx)$/.test(file) || /\/test-support\//.test(file) || /\/testing\//.test(file);
// A line that is only a comment says something about the code; it is not code.
const isComment = (line) => /^\s*(\/\/|\/\*|\*)/.test(line);

const rules = [
  {
    name: 'access rule outside policies/',
    why: 'who may do what is decided in packages/server/src/policies/ only',
    files: (file) =>
      file.startsWith('packages/server/src/') && !file.startsWith('packages/server/src/policies/') && !isTest(file),
    patterns: [
      // role === 'admin', user.role !== "provider", 'admin' === actor.role
      /\brole\s*[!=]==?\s*['"](admin|provider)['"]/,
      /['"](admin|provider)['"]\s*[!=]==?\s*[\w.?!]*\brole\b/,
      // organization_id === ..., ... !== actor.organizationId; a test for null or undefined
      // (is a filter given?) decides nothing about access and is left alone.
      /\b(organization_id|organizationId)\s*[!=]==?(?!=)(?!\s*(null|undefined)\b)/,
      /(?<!\b(null|undefined)\s*)(?<![!=])[!=]==?\s*[\w.?!()]*\b(organization_id|organizationId)\b/,
    ],
  },
  {
    name: 'SQL outside a repository',
    why: 'SQL lives in repositories (and migrations, migrate.ts, seed data)',
    files: (file) =>
      file.startsWith('packages/server/src/') &&
      // foo.repository.ts, or repository.ts / repositories/ inside a module's own folder.
      !/(^|[/.])repository\.ts$/.test(file) &&
      !file.includes('/repositories/') &&
      !file.startsWith('packages/server/src/db/migrations/') &&
      file !== 'packages/server/src/db/migrate.ts' &&
      // Creating the embedded server's database (from the system catalogs) is the migrations'
      // kind of work, done before any repository can run.
      file !== 'packages/server/src/db/embedded.ts' &&
      !/seed/.test(file.slice(file.lastIndexOf('/'))) &&
      !isTest(file),
    patterns: [/\bSELECT\b/, /\bINSERT INTO\b/, /\bUPDATE\s+["\w.]+\s+SET\b/, /\bDELETE FROM\b/, /\bsql`/],
  },
  {
    name: 'API call outside src/api/',
    why: 'the web calls the portal API through packages/web/src/api/ only',
    files: (file) =>
      file.startsWith('packages/web/src/') &&
      !file.startsWith('packages/web/src/api/') &&
      // The user pool is not the portal API: Amplify's setup loads its own configuration.
      file !== 'packages/web/src/lib/amplify.ts' &&
      file !== 'packages/web/src/lib/pool-auth.ts' &&
      !isTest(file),
    patterns: [
      /\bfetch\(/,
      /\bcallApi\(/,
      /\bsendBeacon\b/,
      /\bnew (XMLHttpRequest|EventSource|WebSocket)\b/,
      /\baxios\b/,
    ],
  },
];

const findings = [];
for (const file of [...sourceFiles('packages/server/src'), ...sourceFiles('packages/web/src')]) {
  const applicable = rules.filter((rule) => rule.files(file));
  if (!applicable.length) continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (isComment(line)) return;
    for (const rule of applicable) {
      if (rule.patterns.some((pattern) => pattern.test(line))) {
        findings.push({ rule, file, line: index + 1, text: line.trim() });
      }
    }
  });
}

for (const f of findings) console.log(`${f.file}:${f.line}: ${f.rule.name}: ${f.text.slice(0, 120)}`);

if (report) {
  console.log('\nSummary');
  for (const rule of rules) {
    const mine = findings.filter((f) => f.rule === rule);
    console.log(`  ${rule.name} (${rule.why}): ${mine.length}`);
    const byFile = new Map();
    for (const f of mine) byFile.set(f.file, (byFile.get(f.file) ?? 0) + 1);
    for (const [file, count] of byFile) console.log(`    ${count}\t${file}`);
  }
  process.exit(0);
}

if (findings.length) {
  console.error(
    `\nstructure check: ${findings.length} finding(s); see the rules at the top of scripts/check-structure.mjs`,
  );
  process.exit(1);
}
console.log('structure check: every concern is in its home');
