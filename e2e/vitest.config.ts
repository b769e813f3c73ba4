import { defineConfig } from 'vitest/config';

// The contracts package resolves to its TypeScript sources in tests (see its package.json exports).
// No 'module' condition: packages' ESM builds for bundlers do not load in Node.
const conditions = ['@rpm/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts its own portal and browser; two cores run one file at a time well.
    fileParallelism: false,
    pool: 'forks',
  },
});
