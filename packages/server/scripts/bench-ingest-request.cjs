/**
 * The Tenovi webhook body of each benchmark request (bench-ingest.ts), loaded by autocannon's
 * worker thread so that the load generator does not share the server's event loop. Every request
 * is a new measurement: a distinct device, time and measurement index, as a fleet of cuffs sends.
 * Plain CommonJS: autocannon require()s it inside the worker.
 */
const devices = Number(process.env.BENCH_DEVICES);
const start = Number(process.env.BENCH_START);
const offset = Number(process.env.BENCH_OFFSET);
let n = offset;

module.exports = function setupRequest(req) {
  n++;
  const base = {
    hwi_device_id: `BENCH-${1 + (n % devices)}`,
    timestamp: new Date(start + n * 1000).toISOString(),
    filter_params: { measurement_index: n },
  };
  return {
    ...req,
    body: JSON.stringify([
      { ...base, metric: 'blood_pressure', value_1: 110 + (n % 40), value_2: 70 + (n % 20) },
      { ...base, metric: 'pulse', value_1: 60 + (n % 30) },
    ]),
  };
};
