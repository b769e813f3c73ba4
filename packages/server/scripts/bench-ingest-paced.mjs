/**
 * The paced webhook load of bench-ingest-scale.ts, in a worker thread so that the load generator
 * does not share the portal's event loop: evenly spaced POSTs at `rate` per second (bench-load's
 * open-loop `drive`, each call's latency counted from its due time), not autocannon's
 * overallRate, which spends each second's budget at full speed and then waits, so that "100
 * webhooks/s" arrived as bursts and its p50/p99 were those of a saturated portal for part of
 * every second. The bodies are those of the saturated runs (bench-ingest-batch-request.cjs).
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { drive } = await import('./bench-load.ts');
const setupRequest = createRequire(import.meta.url)('./bench-ingest-batch-request.cjs');

/** @type {{ url: string; rate: number; seconds: number; connections: number }} */
const { url, rate, seconds, connections } = workerData;
const target = new URL(url);
const agents = Array.from({ length: connections }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
const statuses = { ok: 0, non2xx: 0, errors: 0 };

const post = (worker) =>
  new Promise((resolve) => {
    const r = setupRequest({ headers: { 'content-type': 'application/json' } });
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: r.path,
        agent: agents[worker],
        headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode >= 200 && res.statusCode < 300) statuses.ok++;
          else statuses.non2xx++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      statuses.errors++;
      resolve();
    });
    req.end(r.body);
  });

const measured = await drive(post, seconds, rate, connections);
for (const agent of agents) agent.destroy();
parentPort.postMessage({ ...measured, ...statuses });
