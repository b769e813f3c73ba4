import { defineConfig } from 'vitest/config';

// The package's own TypeScript sources (see its package.json exports), as the other packages' tests.
const conditions = ['@rpm/source', 'node', 'development|production'];

/** Pure code only: no database, no browser. */
export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Two cores.
    maxWorkers: 2,
  },
});
