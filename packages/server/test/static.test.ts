import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/http.ts';

// A web build as `npm run build` lays it out: hashed assets with their precompressed copies.
const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
// The build's copy of index.html that already draws the sign-in page.
const LOGIN = '<!doctype html><html><body><div id="root"><div id="sign-in-shell"></div></div></body></html>';
const ASSET = `export const app = ${JSON.stringify('x'.repeat(4000))};`;

let server: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'rpm-web-'));
  await mkdir(path.join(webDist, 'assets'));
  const asset = path.join(webDist, 'assets', 'index-AbC123.js');
  await writeFile(asset, ASSET);
  await writeFile(`${asset}.br`, brotliCompressSync(ASSET));
  await writeFile(`${asset}.gz`, gzipSync(ASSET));
  await writeFile(path.join(webDist, 'index.html'), INDEX);
  await writeFile(path.join(webDist, 'index.html.br'), brotliCompressSync(INDEX));
  await writeFile(path.join(webDist, 'login.html'), LOGIN);
  await writeFile(path.join(webDist, 'login.html.br'), brotliCompressSync(LOGIN));
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ WEB_DIST: webDist });
});
afterAll(async () => {
  await server?.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string, cookie?: string) =>
  server.app.inject({
    method: 'GET',
    url,
    headers: { ...(encoding ? { 'accept-encoding': encoding } : {}), ...(cookie ? { cookie } : {}) },
  });

describe('the web app as served', () => {
  it('sends hashed assets precompressed, brotli first, and cached for a year as immutable', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET);
    expect(br.rawPayload.length).toBeLessThan(ASSET.length / 10);

    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(ASSET);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET);

    // The compressed copies are how a file is sent, not files of their own.
    expect((await get('/assets/index-AbC123.js.br')).statusCode).toBe(404);
  });

  it('revalidates index.html on every load, for client routes too, and other unhashed files', async () => {
    for (const url of ['/index.html', '/patients/42', '/dashboard']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('sends the sign-in page already drawn to a signed-out visit of /login, the plain page with a session', async () => {
    const signedOut = await get('/login?next=1', 'br');
    expect(signedOut.statusCode).toBe(200);
    expect(signedOut.headers['cache-control']).toBe('no-cache');
    expect(signedOut.headers['content-encoding']).toBe('br');
    expect(signedOut.headers.vary).toMatch(/cookie/i);
    expect(brotliDecompressSync(signedOut.rawPayload).toString()).toBe(LOGIN);

    const withSession = await get('/login', 'br', 'rpm_session=abc');
    expect(withSession.headers['cache-control']).toBe('no-cache');
    expect(withSession.headers.vary).toMatch(/cookie/i);
    expect(brotliDecompressSync(withSession.rawPayload).toString()).toBe(INDEX);

    // Other routes never get it, signed in or not.
    expect((await get('/patients', undefined)).body).toBe(INDEX);
  });
});
