import type { VitalPage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildReadings } from '../../../test/support/factories.ts';
import { startPatientFixture, type ApiClient, type TestServer } from '../../../test/support/http.ts';
import { genericPlanOf } from '../../../test/support/plans.ts';
import { readScopedVitalPage } from './vitals.repository.ts';

let server: TestServer;
let provider: ApiClient;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  ({ server, provider, patientId, otherPatientId } = await startPatientFixture('Dated'));
  await buildReadings(server.db.pool, patientId, [
    { at: '2026-02-27T10:00:00Z', systolic: 121 },
    { at: '2026-03-01T00:00:00Z', systolic: 122 },
    { at: '2026-03-09T10:00:00Z', systolic: 123 },
    { at: '2026-03-10T00:00:00Z', systolic: 124 },
    { at: '2026-03-10T08:00:00Z', systolic: null, pulse: 70 },
  ]);
});
afterAll(async () => server?.close());

const page = (query: string) => provider.get<VitalPage>(`/api/patients/${patientId}/vitals?${query}`);
const systolics = (body: VitalPage) => body.items.map((v) => v.systolic);

describe('the readings table date filter', () => {
  it('answers the readings from `from` (inclusive) to `to` (exclusive), with their own total', async () => {
    const r = await page(`from=${encodeURIComponent('2026-03-01T00:00:00Z')}&to=${encodeURIComponent('2026-03-10T00:00:00Z')}`);
    expect(r.status).toBe(200);
    expect(systolics(r.body)).toEqual([123, 122]);
    expect(r.body.total).toBe(2);
    expect(await lastAuditOf(server, 'vitals.list', String(patientId))).toMatchObject({
      outcome: 'success',
      details: { count: 2, from: '2026-03-01T00:00:00+00:00', to: '2026-03-10T00:00:00+00:00' },
    });
  });

  it('takes either end alone, pages inside the range, and without dates answers every reading', async () => {
    const since = await page(`from=${encodeURIComponent('2026-03-09T00:00:00Z')}&limit=1&offset=1`);
    expect(since.body.total).toBe(3);
    expect(systolics(since.body)).toEqual([124]);
    const until = await page(`to=${encodeURIComponent('2026-03-01T00:00:00Z')}`);
    expect(systolics(until.body)).toEqual([121]);
    expect((await page('limit=100')).body.total).toBe(5);
    expect((await page(`from=${encodeURIComponent('2030-01-01T00:00:00Z')}`)).body).toEqual({ items: [], total: 0 });
  });

  it('refuses a date that is not a timestamp, and another organization keeps its 404', async () => {
    expect((await page('from=yesterday')).status).toBe(400);
    const other = await provider.get(`/api/patients/${otherPatientId}/vitals?from=${encodeURIComponent('2026-03-01T00:00:00Z')}`);
    expect(other.status).toBe(404);
  });
});

describe('the dated page statement', () => {
  // The portal runs it as a named statement with a generic plan (db/pool.ts): a plan made before
  // the dates are known must still keep to the months of the range, and count the range once.
  it('in its generic plan, leaves out the month tables outside the range and counts the range once', async () => {
    const range = { from: '2026-03-01T00:00:00Z', to: '2026-03-10T00:00:00Z' };
    const { result: read, nodes } = await genericPlanOf(server.db.pool, (client) =>
      readScopedVitalPage(
        client,
        { patientId, visibleOrganization: null, limit: 10, offset: 0, ...range },
        { action: 'vitals.list', outcome: 'success', resourceType: 'patient', resourceId: patientId },
      ),
    );
    expect(read?.total).toBe(2);
    // The page and the count each read observations through an Append or Merge Append whose
    // month tables outside March 2026 were removed when the plan started.
    const appends = nodes.filter((n) => n['Node Type'] === 'Append' || n['Node Type'] === 'Merge Append');
    expect(appends.length).toBe(2);
    for (const node of appends) expect(node['Subplans Removed']).toBeGreaterThan(0);
    // The count is an InitPlan (once), not a SubPlan run again for every row of the page.
    expect(nodes.filter((n) => n['Subplan Name']?.startsWith('SubPlan'))).toEqual([]);
  });
});
