/*
 * A test of the architecture checks themselves (node --test scripts/lint-rules.test.mjs, run by
 * `npm run test:lint-rules` and CI). It copies a module (notes) to a temporary one, plants in
 * the copy, in the kernel and in a web feature one violation of each kind the rules exist for,
 * and asserts that the type checker or ESLint refuses each one in its own file, naming the rule.
 * The clean copy must pass, so that every refusal comes from what was planted.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = path.join(root, 'packages/server/src');
const probeName = `lint-probe-${process.pid}`;
const probeModule = path.join(server, 'modules', probeName);
const probeKernel = path.join(server, 'kernel', `${probeName}.ts`);
const probeFeature = path.join(root, 'packages/web/src/features/patients', `${probeName}.ts`);
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

/* Role and organization decisions outside policies/: each must fail to compile. */
const typePlants = {
  'role-includes.ts': `
    import type { SignedInContext } from '../../kernel/request-context.ts';
    export const mayClose = (ctx: SignedInContext) => ['admin'].includes(ctx.actor.role);`,
  'role-constant.ts': `
    import type { Role } from '@rpm/contracts';
    import type { SignedInContext } from '../../kernel/request-context.ts';
    const ADMIN: Role = 'admin';
    export const mayClose = (ctx: SignedInContext) => ctx.actor.role === ADMIN;`,
  'role-switch.ts': `
    import type { SignedInContext } from '../../kernel/request-context.ts';
    export function scope(ctx: SignedInContext): string {
      switch (ctx.actor.role) {
        case 'admin':
          return 'all';
        default:
          return 'own';
      }
    }`,
  'role-case-folded.ts': `
    import type { SignedInContext } from '../../kernel/request-context.ts';
    export const mayClose = (ctx: SignedInContext) => ctx.actor.role.toLowerCase() === 'ADMIN'.toLowerCase();`,
  'organization-object-is.ts': `
    import type { SignedInContext } from '../../kernel/request-context.ts';
    export const sameOrganization = (ctx: SignedInContext, patient: { organization_id: number }) =>
      Object.is(ctx.actor.organizationId, patient.organization_id);`,
  'organization-destructured.ts': `
    import type { Actor } from '../../policies/actor.ts';
    export function own(actor: Actor, organizationId: number): boolean {
      const { organizationId: mine } = actor;
      return mine === organizationId;
    }`,
  'organization-bracket.ts': `
    import type { Actor } from '../../policies/actor.ts';
    export const own = (actor: Actor, id: number) => actor['organizationId'] === id;`,
};

/* Everything else: each must fail ESLint with the named rule. */
const lintPlants = [
  {
    name: 'a query-builder call in a service',
    file: path.join(probeModule, 'query-builder.service.ts'),
    rule: '@typescript-eslint/no-restricted-imports',
    text: `
      import type { Queryable } from '../../db/pool.ts';
      import { kysely } from '../../db/kysely.ts';
      export const count = (db: Queryable) => kysely(db).selectFrom('patients').select('id').execute();`,
  },
  {
    name: 'a raw SQL template (kysely sql) in a service',
    file: path.join(probeModule, 'sql-template.service.ts'),
    rule: '@typescript-eslint/no-restricted-imports',
    text: `
      import { sql } from 'kysely';
      export const statement = sql\`select 1\`;`,
  },
  {
    name: 'a lower-case SQL string sent from a service',
    file: path.join(probeModule, 'lower-case-sql.service.ts'),
    rule: 'no-restricted-syntax',
    text: `
      import type pg from 'pg';
      export const patients = (db: pg.Pool) => db.query('select id from patients where organization_id = $1', [1]);`,
  },
  {
    name: 'a lower-case SQL string built in a service for a repository to run',
    file: path.join(probeModule, 'sql-text.service.ts'),
    rule: 'no-restricted-syntax',
    text: `
      export const statement = (table: string) => \`
        select id from \${table} where organization_id = $1\`;`,
  },
  {
    name: 'SQL sent through a computed member',
    file: path.join(probeModule, 'computed-query.service.ts'),
    rule: 'no-restricted-syntax',
    text: `
      import type pg from 'pg';
      export const patients = (db: pg.Pool) => db['query']('select id from patients');`,
  },
  {
    name: 'the query builder loaded by a dynamic import',
    file: path.join(probeModule, 'dynamic-kysely.service.ts'),
    rule: 'no-restricted-syntax',
    text: `
      export const builder = () => import('kysely');`,
  },
  {
    name: 'a layer importing upward (kernel importing a module)',
    file: probeKernel,
    rule: 'boundaries/dependencies',
    text: `
      import { notesRoutes } from '../modules/notes/index.ts';
      export const routes = notesRoutes;`,
  },
  {
    name: 'a module importing the app',
    file: path.join(probeModule, 'imports-app.ts'),
    rule: 'boundaries/dependencies',
    text: `
      import { buildApp } from '../../app.ts';
      export const build = buildApp;`,
  },
  {
    name: 'a private file of another module (its repository)',
    file: path.join(probeModule, 'private-import.service.ts'),
    rule: 'boundaries/dependencies',
    text: `
      import { insertNote } from '../notes/notes.repository.ts';
      export const write = insertNote;`,
  },
  {
    name: 'a private file of another module, re-exported',
    file: path.join(probeModule, 'private-reexport.ts'),
    rule: 'boundaries/dependencies',
    text: `
      export { insertNote } from '../notes/notes.repository.ts';`,
  },
  {
    name: 'the app loaded by a dynamic import from a module',
    file: path.join(probeModule, 'dynamic-app.ts'),
    rule: 'boundaries/dependencies',
    text: `
      export const later = () => import('../../app.ts');`,
  },
  {
    name: "the actor's private fields read outside policies/",
    file: path.join(probeModule, 'actor-fields.service.ts'),
    rule: 'boundaries/dependencies',
    text: `
      import { roleOf } from '../../policies/actor-fields.ts';
      import type { Actor } from '../../policies/actor.ts';
      export const isAdmin = (actor: Actor) => roleOf(actor) === 'admin';`,
  },
  {
    name: 'an import cycle',
    file: path.join(probeModule, 'cycle-a.ts'),
    rule: 'import-x/no-cycle',
    text: `
      import { b } from './cycle-b.ts';
      export const a = () => b();`,
    companion: {
      file: path.join(probeModule, 'cycle-b.ts'),
      text: `
      import { a } from './cycle-a.ts';
      export const b = (): unknown => a;`,
    },
  },
  {
    name: 'a test writing a domain row with an INSERT of its own',
    file: path.join(probeModule, 'planted-insert.test.ts'),
    rule: 'no-restricted-syntax',
    text: `
      import type pg from 'pg';
      export const plant = (db: pg.Pool) => db.query(\`
        insert into notes (patient_id, content) values ($1, 'x')\`, [1]);`,
  },
  {
    name: 'a test changing a domain row with an UPDATE of its own',
    file: path.join(probeModule, 'planted-update.test.ts'),
    rule: 'no-restricted-syntax',
    text: `
      import type pg from 'pg';
      export const disable = (db: pg.Pool) => db.query(\`
        update users
           set status = 'disabled' where id = $1\`, [1]);`,
  },
  {
    name: 'fetch in a web feature',
    file: probeFeature.replace('.ts', '-fetch.ts'),
    rule: 'no-restricted-globals',
    text: `export const load = () => fetch('/api/patients');`,
  },
  {
    name: 'window.fetch in a web feature',
    file: probeFeature.replace('.ts', '-window-fetch.ts'),
    rule: 'no-restricted-properties',
    text: `export const load = () => window.fetch('/api/patients');`,
  },
  {
    name: 'globalThis.fetch in a web feature',
    file: probeFeature.replace('.ts', '-global-fetch.ts'),
    rule: 'no-restricted-properties',
    text: `export const load = () => globalThis.fetch('/api/patients');`,
  },
  {
    name: 'a web feature importing another feature',
    file: probeFeature.replace('.ts', '-feature-import.ts'),
    rule: 'import-x/no-restricted-paths',
    text: `export * from '../users/register-page.tsx';`,
  },
];

function plant(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${text.replace(/^\n/, '').replace(/^ {4,6}/gm, '')}\n`);
}

describe('the architecture checks refuse each planted violation', () => {
  let eslint;
  before(() => {
    // A temporary copy of a real module: the copy alone must pass, the plants must not.
    cpSync(path.join(server, 'modules/notes'), probeModule, {
      recursive: true,
      filter: (src) => !src.endsWith('.test.ts'),
    });
    for (const [name, text] of Object.entries(typePlants)) plant(path.join(probeModule, `decision-${name}`), text);
    for (const p of lintPlants) {
      plant(p.file, p.text);
      if (p.companion) plant(p.companion.file, p.companion.text);
    }
    eslint = new ESLint({ cwd: root });
  });
  after(() => {
    if (process.env.KEEP_PROBE) return;
    rmSync(probeModule, { recursive: true, force: true });
    rmSync(probeKernel, { force: true });
    for (const p of lintPlants) if (p.file.startsWith(path.dirname(probeFeature))) rmSync(p.file, { force: true });
  });

  it('passes the unchanged copy of the module', async () => {
    const results = await eslint.lintFiles(
      ['notes.service.ts', 'notes.repository.ts', 'notes.routes.ts', 'index.ts'].map((f) => path.join(probeModule, f)),
    );
    const errors = results.flatMap((r) =>
      r.messages.map((m) => `${rel(r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`),
    );
    assert.deepEqual(errors, []);
  });

  it('refuses to compile a role or organization decision outside policies/, in any spelling', () => {
    const tsconfig = path.join(probeModule, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: '../../../tsconfig.json',
        compilerOptions: { noEmit: true },
        include: ['decision-*.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', tsconfig], { cwd: root, encoding: 'utf8' });
    } catch (err) {
      output = `${err.stdout}${err.stderr}`;
    }
    // Each plant fails for the one reason it is there: the actor has no such field outside
    // policies/ (TS2339; TS7053 for a bracket access), not a broken import or anything else.
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    for (const line of errors) assert.match(line, /error TS(2339|7053):/, `unexpected error: ${line}`);
    for (const name of Object.keys(typePlants)) {
      assert.ok(
        errors.some((line) => line.includes(`decision-${name}(`)),
        `decision-${name} compiled: ${errors.join('\n')}`,
      );
    }
  });

  for (const p of lintPlants) {
    it(`refuses ${p.name} (${p.rule})`, async () => {
      const [result] = await eslint.lintFiles([p.file]);
      const rules = result.messages.map((m) => m.ruleId);
      assert.ok(
        rules.includes(p.rule),
        `${rel(p.file)}: expected ${p.rule}, got ${JSON.stringify(result.messages.map((m) => `${m.ruleId}: ${m.message}`))}`,
      );
    });
  }
});
