import { describe, expect, it } from 'vitest';
import { genericPlanOf, growingTablesDatabase, seqScanned } from '../../../test/support/plans.ts';
import { readingsToCheck } from './alerts.repository.ts';

/*
 * The alert check's window read runs in every webhook call, as a statement each connection plans
 * once (generically). When it was a statement of its own, its plan made while the month's readings
 * table was nearly empty (a new month, a new install) read all of that table, and a connection kept
 * that plan as the table grew until the table was analyzed. It is now read beside each reading's
 * settings (readingsToCheck), keyed by the reading's patient and time, and that statement keeps to
 * the patient-and-time index even in a plan made on the empty table, with no renewal of plans at
 * all (db/pool.ts renews them anyway, pool.test.ts).
 */

const tables = growingTablesDatabase();

describe('the alert windows, in the generic plan the portal runs', () => {
  it('are read over the patient-and-time index once the table has grown, by the plan made on the nearly empty table', async () => {
    const { stored } = await tables.plannedThenGrown(
      [
        { at: { ago: '2 days' }, systolic: 141 },
        { at: { ago: '1 day' }, systolic: 142 },
        { at: { ago: '1 hour' }, systolic: 143 },
      ],
      (pool, _patient, readings) => readingsToCheck(pool, [readings.at(-1)!]),
    );
    const latest = [stored.at(-1)!];
    const { result, nodes } = await genericPlanOf(tables.prepared, (client) => readingsToCheck(client, latest));
    expect(result[0]!.window!.readings.map((r) => r.systolic)).toEqual([141, 142, 143]);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
  });
});
