import { MeasurementTexts, type OrganizationDisplayUnits } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let orgA: number;
let orgB: number;
const path = (id: number) => `/api/organizations/${id}/display-units`;

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', null);
  provider = await signInNewStaff(server, 'provider', orgA);
});
afterAll(async () => server?.close());

describe('GET and PUT /api/organizations/{id}/display-units', () => {
  it('lets an admin set them, audited, and the organization\'s staff read them', async () => {
    expect((await provider.get<OrganizationDisplayUnits>(path(orgA))).body).toEqual({ display_units: {} });
    const units = { weight: '[lb_av]', glucose: 'mmol/L' };
    const res = await admin.put<OrganizationDisplayUnits>(path(orgA), { display_units: units });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ display_units: units });
    expect(await lastAuditOf(server, 'organization.display_units_update')).toMatchObject({
      outcome: 'success',
      resource_type: 'organization',
      resource_id: String(orgA),
      details: { from: {}, to: units },
    });
    expect((await provider.get<OrganizationDisplayUnits>(path(orgA))).body).toEqual({ display_units: units });
    expect(await lastAuditOf(server, 'organization.display_units_read')).toMatchObject({ outcome: 'success', resource_id: String(orgA) });
    const { rows } = await server.db.pool.query(`SELECT display_units FROM organizations WHERE id = $1`, [orgA]);
    expect(rows[0].display_units).toEqual(units);
  });

  it('refuses an unknown kind or unit with the registry text and keeps what was stored', async () => {
    const kind = await admin.put<{ message: string }>(path(orgB), { display_units: { body_temperature: '[degF]' } });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toBe(MeasurementTexts.unknownKind('body_temperature'));
    const unit = await admin.put<{ message: string }>(path(orgB), { display_units: { weight: '[stone_av]' } });
    expect(unit.status).toBe(400);
    expect(unit.body.message).toBe(MeasurementTexts.unknownUnit('[stone_av]', 'Weight'));
    expect(await lastAuditOf(server, 'organization.display_units_update')).toMatchObject({ outcome: 'failure', resource_id: String(orgB) });
    expect((await admin.get<OrganizationDisplayUnits>(path(orgB))).body).toEqual({ display_units: {} });
  });

  it("keeps another organization's units from a provider (404), changes from providers (403), and asks for a session", async () => {
    expect((await provider.get(path(orgB))).status).toBe(404);
    expect(await lastAuditOf(server, 'organization.display_units_read')).toMatchObject({ outcome: 'denied', resource_id: String(orgB) });
    expect((await provider.put(path(orgA), { display_units: {} })).status).toBe(403);
    expect((await admin.get(path(987654))).status).toBe(404);
    expect((await admin.put(path(987654), { display_units: {} })).status).toBe(404);
    expect((await apiClient(server).get(path(orgA))).status).toBe(401);
  });
});
