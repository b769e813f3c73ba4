import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  // The contracts package is bundled from its TypeScript sources (see its package.json exports).
  resolve: { conditions: ['@rpm/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@rpm/source', ...defaultServerConditions] } },
  server: {
    port: 5173,
    // In development the API and the local user pool are served by the portal server.
    proxy: {
      '/api': 'http://localhost:3000',
      '/cognito': 'http://localhost:3000',
      '/app-config.json': 'http://localhost:3000',
    },
  },
  build: { outDir: 'dist', sourcemap: false, manifest: true, chunkSizeWarningLimit: 1200 },
  test: {
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
