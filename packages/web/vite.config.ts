import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build, defaultClientConditions, defaultServerConditions, type Plugin } from 'vite';
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
        // The shell is a chunk of its own, or part of the first visit's chunk (see firstVisitChunk).
        const shell = chunks.find((c) => Object.keys(c.modules).some((id) => id.endsWith(shellModule)));
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

/*
 * One chunk for what every first visit runs after the entry: the app shell's static imports and
 * the sign-in page's (React, the router, the MUI parts they use, the providers). Left to itself
 * the bundler cuts that code into some fifty shared chunks of a kilobyte or two, and a browser
 * then pays a request, and about a kilobyte of response headers, for each: the first visit to
 * /login took 53 scripts.
 *
 * The patient record had the same problem once signed in: some forty small chunks for the page
 * and the sections it loads after its first screen, which a phone on HTTP/1.1 (six connections,
 * a round trip each) fetches in seven or eight waves. So a few more groups follow the first one,
 * each taking what its roots import statically and no earlier group took: the signed-in chrome
 * (sidebar, account menu, session dialog, loaded with every signed-in page), what the patient
 * list and the patient record share (the record is mostly opened from the list), the record's
 * first screen, the sections below it, the charts (uPlot and its CSS), and what the record
 * shares with other pages.
 *
 * Which modules those are is only known once the bundler has tree-shaken and chunked the app
 * (the MUI and contracts barrels name every part, used or not), so a first pass builds in memory
 * without the groups and reads its chunk graph. The entry's own chunks stay out of every group
 * (the entry must stay small to start the session check alone), and the sign-in page's chunk
 * out of the first (it stays a route chunk, preloaded by the shell for /login).
 */
interface ChunkGroup {
  name: string;
  roots: string[];
  /** Roots whose own chunk stays out of the group (their static imports still join it). */
  ownChunkApart?: string[];
  /** Only modules that every one of these roots reaches as well (a chunk the pages share). */
  sharedWith?: string[];
  /**
   * Nothing another page (a route's `*-page.tsx`) reaches: that page would otherwise fetch this
   * group, all of it, for a module or two.
   */
  ownPageOnly?: boolean;
}
const FIRST_PASS = 'RPM_WEB_FIRST_PASS';
function chunkGroups(groups: ChunkGroup[]) {
  const members = new Map<string, string>();
  const plugin: Plugin = {
    name: 'chunk-groups',
    apply: (_config, { command }) => command === 'build' && !process.env[FIRST_PASS],
    async buildStart() {
      process.env[FIRST_PASS] = '1';
      let output;
      try {
        output = await build({ configFile: fileURLToPath(import.meta.url), logLevel: 'silent', build: { write: false } });
      } finally {
        delete process.env[FIRST_PASS];
      }
      const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) =>
        'output' in o ? o.output.flatMap((c) => (c.type === 'chunk' ? [c] : [])) : [],
      );
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const stack = [...start];
        while (stack.length) {
          const file = stack.pop()!;
          if (seen.has(file)) continue;
          seen.add(file);
          stack.push(...(byName.get(file)?.imports ?? []));
        }
        return seen;
      };
      const chunkOf = (root: string) => {
        const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(root));
        if (!chunk) throw new Error(`chunk-groups: no chunk for ${root}`);
        return chunk.fileName;
      };
      const taken = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      members.clear();
      for (const group of groups) {
        const apart = new Set((group.ownChunkApart ?? []).map(chunkOf));
        const shared = (group.sharedWith ?? []).map((root) => closure([chunkOf(root)]));
        const rootFiles = group.roots.map(chunkOf);
        const otherPages = group.ownPageOnly
          ? closure(chunks.filter((c) => /-page\.tsx$/.test(c.facadeModuleId ?? '') && !rootFiles.includes(c.fileName)).map((c) => c.fileName))
          : new Set<string>();
        const files = [...closure(rootFiles)].filter(
          (file) => !taken.has(file) && !apart.has(file) && !otherPages.has(file) && shared.every((s) => s.has(file)),
        );
        for (const file of files) {
          taken.add(file);
          for (const id of Object.keys(byName.get(file)!.modules)) members.set(id, group.name);
        }
      }
    },
    // The manifest names a grouped chunk by its group, not by the modules in it: this file says
    // which chunk holds each root, for the size budgets (.size-limit.js).
    generateBundle(_options, bundle) {
      const roots: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const root of groups.flatMap((g) => g.roots)) {
          if (chunk.moduleIds.some((id) => id.endsWith(root))) roots[root] = `_${chunk.fileName.replace(/^assets\//, '')}`;
        }
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-roots.json', source: JSON.stringify(roots, null, 2) });
    },
  };
  return {
    plugin,
    groups: groups.map(({ name }) => ({ name, test: (id: string) => members.get(id) === name, includeDependenciesRecursively: false })),
  };
}
const PATIENT_RECORD = 'src/features/patients/patient-detail-page.tsx';
const PATIENT_RECORD_SECTIONS = [
  'src/features/patients/billing-progress.tsx',
  'src/components/summary-links.tsx',
  'src/features/patients/notes-section.tsx',
  'src/features/patients/tracking-section.tsx',
  'src/features/patients/outreach-section.tsx',
  'src/features/patients/measurement-panels.tsx',
];
const chunking = chunkGroups([
  { name: 'app', roots: ['src/app/mount.tsx', 'src/features/auth/login-page.tsx'], ownChunkApart: ['src/features/auth/login-page.tsx'] },
  { name: 'signed-in', roots: ['src/app/sidebar.tsx', 'src/app/account-menu.tsx', 'src/app/session-ended-dialog.tsx'] },
  { name: 'patients-shared', roots: [PATIENT_RECORD, ...PATIENT_RECORD_SECTIONS], sharedWith: ['src/features/patients/patients-page.tsx'] },
  // The care timer comes with the record's first screen: the page waits for it (drawn later, it
  // pushed the page down), so a chunk of its own was one more round trip before the first paint.
  { name: 'patient-record', roots: [PATIENT_RECORD, 'src/features/patients/care-timer/care-timer.tsx'], ownPageOnly: true },
  { name: 'patient-record-more', roots: PATIENT_RECORD_SECTIONS, ownPageOnly: true },
  {
    name: 'charts',
    roots: ['src/features/patients/measurement-chart.tsx', 'src/features/patients/vitals-chart.tsx'],
    ownPageOnly: true,
  },
  // What the record shares with other pages (the alerts and billing pages mostly): one chunk, which
  // those pages fetch whole for the parts they use.
  { name: 'records-common', roots: [PATIENT_RECORD, ...PATIENT_RECORD_SECTIONS] },
]);

export default defineConfig({
  plugins: [react(), preloadAppShell('src/app/mount.tsx'), signInShell(), chunking.plugin],
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
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: { codeSplitting: { groups: chunking.groups } },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
