import pino from 'pino';

/**
 * Where the portal's log lines go: a file descriptor (stdout), written off the request's path and
 * in batches.
 *
 * Written one line at a time, every request's line was a hand-off to libuv's thread pool and a
 * system call of its own, about a tenth of the portal's CPU on the vitals read. Here lines are
 * written once `batchBytes` are pending, and otherwise at most `flushMs` after the first pending
 * line: under load a write carries a dozen lines, and a quiet portal's lines still show at once.
 * No timer runs while nothing is pending. pino's destination flushes what is pending when the
 * process exits (pino registers it for that).
 */
export function batchedDestination(
  fd: number,
  { batchBytes = 4096, flushMs = 50 }: { batchBytes?: number; flushMs?: number } = {},
): pino.DestinationStream & { flush: (cb?: (err?: Error) => void) => void; flushSync: () => void } {
  const sonic = pino.destination({ dest: fd, sync: false, minLength: batchBytes });
  // Bytes handed to the destination and not yet written: the destination does not say, and a
  // flush asked for while a write is in progress does nothing, so the timer comes back until
  // every byte is out.
  let pending = 0;
  let timer: NodeJS.Timeout | undefined;
  sonic.on('write', (n: number) => {
    pending = Math.max(0, pending - n);
  });
  const tick = () => {
    timer = undefined;
    if (pending === 0) return;
    sonic.flush();
    timer = setTimeout(tick, flushMs).unref();
  };
  return {
    write(line: string) {
      pending += Buffer.byteLength(line);
      sonic.write(line);
      timer ??= setTimeout(tick, flushMs).unref();
    },
    flush: (cb) => sonic.flush(cb),
    flushSync: () => sonic.flushSync(),
  };
}
