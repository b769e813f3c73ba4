/**
 * `npm run audit:verify [-- --expect HEAD@POSITION] [--grace SECONDS]`: checks the audit trail's
 * keyed chain against the portal's database (DATABASE_URL, or the embedded one in DATA_DIR, which
 * must not be in use by a running portal), with the key the portal seals with (AUDIT_HMAC_KEY or
 * the key file in DATA_DIR). Prints the head to keep somewhere the database's administrators
 * cannot write, to pass back with --expect next time. Exit 0 when intact, 1 on any problem.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { withCliDatabase } from '../../db/cli-database.ts';
import { loadAuditHmacKey } from '../../keys.ts';
import { DEFAULT_GRACE_MS, formatHead, parseExpectedHead, verifyAuditChain } from './audit-chain.ts';

function usage(message: string): never {
  process.stderr.write(
    `audit:verify: ${message}\nusage: npm run audit:verify -- [--expect HEAD@POSITION] [--grace SECONDS]\n`,
  );
  process.exit(2);
}

let args: { expect?: string; grace?: string };
try {
  args = parseArgs({ options: { expect: { type: 'string' }, grace: { type: 'string' } } }).values;
} catch (err) {
  usage((err as Error).message);
}
const expect = args.expect === undefined ? undefined : parseExpectedHead(args.expect);
if (args.expect !== undefined && !expect) usage('--expect takes the 64 hex digits of a link, @, and its position');
if (args.grace !== undefined && !/^\d{1,6}$/.test(args.grace)) usage('--grace takes a number of seconds');
const graceMs = args.grace === undefined ? DEFAULT_GRACE_MS : Number(args.grace) * 1000;

const config = loadConfig();
let key: Buffer;
try {
  key = await loadAuditHmacKey(config, { create: false });
} catch (err) {
  process.stderr.write(`audit:verify: ${(err as Error).message}\n`);
  process.exit(1);
}
await withCliDatabase(config, async (pool) => {
  const report = await verifyAuditChain(pool, key, { expect, graceMs });
  for (const p of report.problems) {
    const where = [p.position ? `position ${p.position}` : '', p.logId ? `audit record ${p.logId}` : '']
      .filter(Boolean)
      .join(', ');
    console.log(`${p.kind.toUpperCase()}: ${where ? `${where}: ` : ''}${p.detail}`);
  }
  if (report.unsealed > 0)
    console.log(`info: ${report.unsealed} recent record(s) not sealed yet (the sealer links them within a second)`);
  if (report.expired > 0)
    console.log(
      `info: ${report.expired} sealed record(s) left with audit months dropped after six years (their links still chain)`,
    );
  console.log(`checked ${report.checked} sealed records; ${report.problems.length} problem(s)`);
  if (report.head)
    console.log(`chain head: ${formatHead(report.head)}   (keep it elsewhere; pass it back with --expect)`);
  process.exitCode = report.problems.length ? 1 : 0;
});
