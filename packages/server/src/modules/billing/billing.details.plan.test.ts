import { describe, expect, it } from 'vitest';
import { genericPlanOf, growingTablesDatabase, seqScanned } from '../../../test/support/plans.ts';
import { monthBounds } from './billing-rules.ts';
import { worklistDetails } from './billing.details.repository.ts';

/*
 * The worklist's triage columns are a named statement (worklistDetails): a connection keeps its
 * generic plan, made before the month's bounds are known. That plan must still leave out the month
 * tables of observations outside the window when it starts, and must not read a month table whole
 * because it was nearly empty when planned (a new month): the month tables grow by the minute.
 */

const tables = growingTablesDatabase();

describe("the worklist's triage columns, in the generic plan a connection keeps", () => {
  it('probe the month tables by patient and time, and only those of the window, after the tables grew', async () => {
    const { start, end } = monthBounds(new Date().toISOString().slice(0, 7));
    const { patient, other, stored } = await tables.plannedThenGrown(
      [{ at: { ago: '1 hour' }, systolic: 141 }],
      (pool, id) => worklistDetails(pool, start, end, [id]),
    );
    const latest = stored.at(-1);

    const { result, nodes } = await genericPlanOf(tables.prepared, (client) =>
      worklistDetails(client, start, end, [patient, other]),
    );
    const byPatient = new Map(result.map((r) => [r.patient_id, r]));
    expect(byPatient.get(patient)?.last_reading_at?.toISOString()).toBe(latest!.at.toISOString());
    expect(byPatient.get(other)?.last_reading_at).toBeInstanceOf(Date);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
    // The window's month tables are chosen as the plan starts: the month's and the next one's (the
    // window reaches two days past the month), never the default table of readings outside every
    // month table. The whole history is probed only for a patient with no reading in the window.
    const window = nodes.find((n) => (n['Subplans Removed'] ?? 0) > 0);
    const probed = (window?.Plans ?? []).map((n) => n['Relation Name']);
    expect(probed.length).toBeGreaterThan(0);
    expect(probed.length).toBeLessThanOrEqual(2);
    expect(probed.every((name) => name?.startsWith('observations_y'))).toBe(true);
  });
});
