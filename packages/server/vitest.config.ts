import { defineConfig } from 'vitest/config';

// The contracts package resolves to its TypeScript sources in tests (see its package.json exports).
// No 'module' condition: packages' ESM builds for bundlers do not load in Node.
const conditions = ['@rpm/source', 'node', 'development|production'];

/**
 * Two tiers, chosen by where a test lives or how it is named (`--project unit` / `--project integration`):
 * - unit: pure code that never opens a database — policies, presenters, rules, parsers, config,
 *   keys, SRP arithmetic. A new pure test joins it by its folder, or anywhere by the name
 *   `*.unit.test.ts`. It runs with no PostgreSQL at all: no global setup, and a database address
 *   that refuses every connection, so a test that reaches for one fails instead of finding one.
 * - integration: everything else, against a real PostgreSQL that the global setup starts once
 *   (embedded, or the server at DATABASE_URL). A test that is wrongly left here still runs; one
 *   wrongly put in `unit` fails.
 */
const UNIT = [
  'src/policies/**/*.test.ts',
  'src/presenters/**/*.test.ts',
  'src/**/presenters/**/*.test.ts',
  'src/**/*.presenter.test.ts',
  'src/**/*-rules.test.ts',
  'src/config.test.ts',
  'src/keys.test.ts',
  'src/modules/identity/srp.test.ts',
  'src/modules/identity/pool/schemas.test.ts',
  // The entry point refusing bad settings before it ever connects.
  'test/startup.test.ts',
  '**/*.unit.test.ts',
];
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over the CPU with PostgreSQL.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          // Nothing listens on port 1: any connection attempt is refused at once.
          env: { DATABASE_URL: 'postgres://unit-tier@127.0.0.1:1/no-database' },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: UNIT,
          globalSetup: ['./test/global-setup.ts'],
        },
      },
    ],
  },
});
