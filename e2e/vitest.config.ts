import { defineConfig } from 'vitest/config';

export default defineConfig({
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
