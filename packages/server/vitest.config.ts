import { defineConfig } from 'vitest/config';

// The contracts package resolves to its TypeScript sources in tests (see its package.json exports).
// No 'module' condition: packages' ESM builds for bundlers do not load in Node.
const conditions = ['@rpm/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over the CPU with PostgreSQL.
    maxWorkers: 2,
    pool: 'forks',
  },
});
