// Precompresses the built web app (brotli and gzip, best compression) next to each file, so the
// server sends `.br`/`.gz` as they are instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.map', '.webmanifest']);
const dir = path.resolve(process.argv[2] ?? 'dist');

function* files(d) {
  for (const name of readdirSync(d)) {
    const p = path.join(d, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (COMPRESSIBLE.has(path.extname(p))) yield p;
  }
}

for (const file of files(dir)) {
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  const gz = gzipSync(raw, { level: 9 });
  // A compressed copy larger than the file helps no one.
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
}
