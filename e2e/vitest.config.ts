import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The contracts package resolves to its TypeScript sources in tests (see its package.json exports).
const conditions = ['@rpm/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
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
