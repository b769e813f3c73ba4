/**
 * The Tenovi webhook bodies of bench-ingest-scale.ts, loaded by autocannon's worker thread so that
 * the load generator does not share the server's event loop. Each request goes to the next of
 * several sources (several senders at once) and carries BENCH_BATCH new blood-pressure readings:
 * distinct device, time and measurement index, as a fleet of cuffs sends. Plain CommonJS:
 * autocannon require()s it inside the worker.
 */
const devices = Number(process.env.BENCH_DEVICES);
const start = Number(process.env.BENCH_START);
const step = Number(process.env.BENCH_STEP_MS);
const batch = Number(process.env.BENCH_BATCH);
const header = process.env.BENCH_AUTH_HEADER;
/** [{ id, secret }]: the sources of this run. */
const sources = JSON.parse(process.env.BENCH_SOURCES);
let n = Number(process.env.BENCH_OFFSET);
let request = 0;

module.exports = function setupRequest(req) {
  const source = sources[request++ % sources.length];
  const body = [];
  for (let i = 0; i < batch; i++) {
    n++;
    body.push({
      hwi_device_id: `BENCH-${1 + (n % devices)}`,
      // BENCH_STEP_MS apart per reading: every reading is a new measurement key.
      timestamp: new Date(start + n * step).toISOString(),
      filter_params: { measurement_index: n },
      metric: 'blood_pressure',
      value_1: 110 + (n % 25),
      value_2: 70 + (n % 15),
    });
  }
  return {
    ...req,
    path: `/api/ingest/tenovi/${source.id}`,
    headers: { ...req.headers, [header]: source.secret },
    body: JSON.stringify(body),
  };
};
