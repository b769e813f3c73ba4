// Compiles the server to JavaScript in packages/server/dist and copies what tsc does not emit
// (the SQL migrations). Run from packages/server by its `build` script.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
