import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { privateImports, sqlOutsideRepositories, testsWritingRows } from './lint-exceptions.js';

const web = 'packages/web/src';
const features = readdirSync(new URL(`./${web}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/*
 * The web's import zones, as in bulletproof-react: app/ composes features; a feature uses shared
 * code (api/, components/, config/, lib/) and never another feature or app/; shared code never
 * reaches up into a feature or app/. lib/testing/ is the exception: it renders the whole app.
 */
const webZones = [
  ...features.map((name) => ({
    target: `${web}/features/${name}`,
    from: `${web}/features`,
    except: [`./${name}`],
    message: 'Features must not import other features: move what both need to api/, components/ or lib/.',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'Features must not import app/.' },
  {
    target: [`${web}/api/**`, `${web}/components/**`, `${web}/config/**`, `${web}/lib/!(testing)/**`, `${web}/lib/*.*`],
    from: [`${web}/features`, `${web}/app`],
    message: 'Shared code must not import features or app/.',
  },
];

const server = 'packages/server/src';
const testRowsMessage = (what) =>
  `Tests ${what} through the factories (packages/server/test/support/factories.ts), each named for the state it makes.`;
const serverTests = [
  'packages/server/src/**/*.test.ts',
  'packages/server/src/**/test-support/**',
  'packages/server/test/**',
  'packages/server/scripts/**',
];
// Files that may build queries or send SQL: repositories, the database layer and its migrations.
const sqlHomes = [`${server}/**/*.repository.ts`, `${server}/**/repositories/**`, `${server}/db/**`];
const importResolution = {
  // The TypeScript parser reads the imported files too (no-cycle follows them); imports name
  // their files with the extension, so the node resolver finds them.
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/extensions': ['.ts', '.tsx', '.js'],
  'import-x/resolver-next': [createNodeResolver()],
};

/*
 * The server's layers (docs/architecture.md), one direction only:
 *   app (app.ts, server.ts, identity-wiring.ts, plugins/) → modules/<name> → kernel → db,
 * with policies/ (pure: who may do what) usable by app, modules and kernel, and config.ts,
 * keys.ts, free-port.ts (the settings every layer is handed) usable by all but policies.
 * Another module is reached only through its index.ts; the rest of a module is private.
 */
const serverElements = [
  {
    type: 'app',
    pattern: [`${server}/app.ts`, `${server}/server.ts`, `${server}/identity-wiring.ts`, `${server}/plugins/**`],
    mode: 'full',
  },
  { type: 'settings', pattern: [`${server}/config.ts`, `${server}/keys.ts`, `${server}/free-port.ts`], mode: 'full' },
  { type: 'module-deps', pattern: `${server}/modules/module-deps.ts`, mode: 'full' },
  { type: 'module', pattern: `${server}/modules/*`, mode: 'folder', capture: ['name'] },
  { type: 'kernel', pattern: `${server}/kernel`, mode: 'folder' },
  { type: 'policies', pattern: `${server}/policies`, mode: 'folder' },
  { type: 'db', pattern: `${server}/db`, mode: 'folder' },
  { type: 'script', pattern: 'packages/server/scripts/seed-demo*.ts', mode: 'full' },
];
// The `mode: 'full'` patterns match from the repository root. The last policy that matches wins;
// an import no policy allows is refused ("There is no policy allowing dependencies from …").
const serverLayers = {
  default: 'disallow',
  policies: [
    ...[
      ['app', ['app', 'settings', 'module-deps', 'module', 'kernel', 'policies', 'db']],
      ['script', ['app', 'settings', 'module', 'kernel', 'policies', 'db', 'script']],
      ['module', ['settings', 'module-deps', 'module', 'kernel', 'policies', 'db']],
      ['module-deps', ['settings', 'module']],
      ['kernel', ['settings', 'policies', 'db']],
      ['db', ['settings']],
      ['settings', ['settings']],
      ['policies', []],
    ].map(([from, to]) => ({ from: { type: from }, allow: { to: { type: to } } })),
    {
      // Another module's public face is its index.ts; the rest of a module is private to it.
      disallow: { to: { type: 'module', internalPath: '!index.ts' } },
      message: 'another module is imported through its index.ts only; the rest of a module is private to it',
    },
    {
      // The role and organization of an actor are read by policies only.
      disallow: { to: { type: 'policies', internalPath: 'actor-fields.ts' } },
      message: 'the fields of an actor are read by policies only; ask a policy',
    },
    // The known exceptions, each with its reason (lint-exceptions.js).
    ...privateImports.map(({ from, to, file }) => ({
      from: { type: 'module', captured: { name: from } },
      allow: { to: { type: 'module', captured: { name: to }, internalPath: file } },
    })),
  ],
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'coverage/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importResolution,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    // The web calls the portal API through src/api/ only. The user pool is not the portal API:
    // Amplify's setup loads its own configuration (lib/amplify.ts).
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: ['packages/web/src/api/**', 'packages/web/src/lib/amplify.ts', '**/*.test.{ts,tsx}', '**/lib/testing/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'].map((name) => ({
          name,
          message: 'Call the portal API through packages/web/src/api/ only.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self', 'navigator', 'document.defaultView'].flatMap((object) =>
          ['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket', 'sendBeacon'].map((property) => ({
            object,
            property,
            message: 'Call the portal API through packages/web/src/api/ only.',
          })),
        ),
      ],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'axios', message: 'Call the portal API through packages/web/src/api/ only.' }] },
      ],
    },
  },
  {
    files: ['packages/server/src/**/*.ts', 'packages/server/scripts/seed-demo*.ts'],
    ignores: serverTests.filter((glob) => !glob.startsWith('packages/server/scripts')),
    plugins: { boundaries, 'import-x': importX },
    settings: {
      ...importResolution,
      'boundaries/elements': serverElements,
      'boundaries/root-path': import.meta.dirname,
      'boundaries/legacy-warnings': false,
    },
    rules: {
      'boundaries/dependencies': ['error', serverLayers],
      'boundaries/no-unknown-files': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  {
    // The query builder and raw SQL belong to repositories, migrations and db/.
    files: ['packages/server/src/**/*.ts', 'packages/server/scripts/seed-demo*.ts'],
    ignores: [
      ...sqlHomes,
      ...serverTests.filter((glob) => !glob.startsWith('packages/server/scripts')),
      ...sqlOutsideRepositories.map(({ file }) => file),
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', message: 'Only repositories, migrations and db/ build queries.', allowTypeImports: true },
            { name: 'pg', message: 'Only repositories and db/ talk to the driver.', allowTypeImports: true },
          ],
          patterns: [
            {
              regex: '/db/kysely(\\.ts)?$',
              message: 'Only repositories, migrations and db/ build queries.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
          message: 'Only repositories and db/ send SQL: move the statement into a repository.',
        },
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.value='query']",
          message: 'Only repositories and db/ send SQL: move the statement into a repository.',
        },
        {
          // SQL text in any case, built for a repository to run: the statement belongs there.
          selector: 'Literal[value=/^\\s*(select|insert\\s+into|update|delete\\s+from|with)\\s/i]',
          message: 'SQL text belongs in a repository or db/: move the statement there.',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\s*(select|insert\\s+into|update|delete\\s+from|with)\\s/i]',
          message: 'SQL text belongs in a repository or db/: move the statement there.',
        },
        {
          selector: 'ImportExpression[source.value=/^(kysely|pg)$/]',
          message: 'Only repositories, migrations and db/ build queries or talk to the driver.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'Only repositories and db/ write SQL: move the statement into a repository.',
        },
      ],
    },
  },
  {
    // Tests make and change their rows through the factories, never with INSERT, UPDATE or DELETE
    // statements of their own, in SQL text or with the query builder (lint-exceptions.js lists the
    // tests about the database itself).
    files: ['packages/server/src/**/*.test.ts', 'packages/server/test/**/*.test.ts', 'e2e/**/*.test.ts'],
    ignores: testsWritingRows.map(({ file }) => file),
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          ['insert\\s+into\\s', 'make rows'],
          ['update\\s+[\\w."]+\\s+set\\s', 'change rows'],
          ['delete\\s+from\\s', 'remove rows'],
        ].flatMap(([statement, what]) => [
          { selector: `Literal[value=/\\b${statement}/i]`, message: testRowsMessage(what) },
          { selector: `TemplateElement[value.raw=/\\b${statement}/i]`, message: testRowsMessage(what) },
        ]),
        {
          selector:
            'CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: testRowsMessage('make and change rows'),
        },
      ],
    },
  },
  {
    files: [
      '**/scripts/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**',
      '**/seed-demo.ts',
      '**/verify-cli.ts',
      '**/simulate-cli.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
