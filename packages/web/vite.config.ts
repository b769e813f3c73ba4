import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { signInShellBody, signInShellStyle } from './src/app/sign-in-shell.ts';

/*
 * The entry starts the session check and then imports the app shell dynamically, so the browser
 * would only learn of the shell's files once the entry has run: a round trip more before the
 * first paint. These links let it fetch them while it parses the page.
 */
function preloadAppShell(shellModule: string): Plugin {
  return {
    name: 'preload-app-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const shell = chunks.find((c) => c.facadeModuleId?.endsWith(shellModule));
        if (!shell) throw new Error(`preload-app-shell: no chunk for ${shellModule}`);
        const entryFiles = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]));
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || entryFiles.has(fileName)) return;
          files.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(shell.fileName);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/*
 * login.html: index.html with the sign-in page's first screen already in it (see
 * src/app/sign-in-shell.ts); the server sends it for a signed-out visit to /login.
 */
function signInShell(): Plugin {
  return {
    name: 'sign-in-shell',
    apply: 'build',
    async writeBundle({ dir = 'dist' }) {
      // The texts are the contracts' (built before the web app); a variable keeps the config's own
      // bundling from pulling the package in when the config is only loaded (tests, dev server).
      const contractsPackage = '@rpm/contracts';
      const { AuthLabels, Labels, PRIMARY_COLOR } = (await import(contractsPackage)) as typeof import('@rpm/contracts');
      const index = await readFile(path.join(dir, 'index.html'), 'utf8');
      const root = '<div id="root"></div>';
      if (!index.includes(root) || !index.includes('</head>')) throw new Error('sign-in-shell: unexpected index.html');
      const body = signInShellBody({
        appName: AuthLabels.appName,
        loginLink: Labels.loginLink,
        title: AuthLabels.signInTitle,
        email: AuthLabels.email,
        next: Labels.next,
        primaryColor: PRIMARY_COLOR,
      });
      // No module preloads here: the outline needs none of the code to be drawn, and preloads the
      // parser meets first are fetched, and compiled on the main thread, ahead of that first paint.
      // The entry script then brings the code in (one round trip later than the preloads would).
      const html = index
        .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
        .replace('</head>', `${signInShellStyle(PRIMARY_COLOR)}\n  </head>`)
        .replace(root, `<div id="root">${body}</div>`);
      await writeFile(path.join(dir, 'login.html'), html);
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadAppShell('src/app/mount.tsx'), signInShell()],
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
