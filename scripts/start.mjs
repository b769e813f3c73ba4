// `npm start`: runs the compiled portal with plain node. Builds first only when no build exists
// (a fresh clone), so `npm ci && npm start` works; a production install (`npm prune --omit=dev`)
// has the build and needs no build tool. `--build-only` stops after making sure a build exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [
  'packages/contracts/dist/index.js',
  'packages/server/dist/server.js',
  // An older build kept the demo seed elsewhere: build again when it lacks this one.
  'packages/server/dist/seed-demo.js',
  // Nor the backup tools.
  'packages/server/dist/db/backup/backup-cli.js',
  'packages/web/dist/index.html',
];
const missing = outputs.filter((f) => !existsSync(path.join(root, f)));

if (missing.length) {
  if (!existsSync(path.join(root, 'node_modules/typescript'))) {
    process.stderr.write(
      'rpm-portal: no build found and no build tools installed: run `npm ci && npm run build` first\n',
    );
    process.exit(1);
  }
  process.stdout.write('rpm-portal: no build found, building (once)\n');
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    process.stderr.write('rpm-portal: the build failed (see above)\n');
    process.exit(1);
  }
}

if (!process.argv.includes('--build-only')) {
  await import(pathToFileURL(path.join(root, 'packages/server/dist/server.js')).href);
}
