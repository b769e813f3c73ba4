import { organizationSettingsPath, type Organization, type OrganizationSettings } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signIn,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';

/** How the care timer starts for an organization's providers: read by its users, set by admins. */

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let orgId: number;
let adminId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server, 'Timer Clinic')).id;
  admin = await signInNewStaff(server, 'admin', orgId);
  adminId = (await admin.get<{ user: { id: number } }>('/api/me')).body.user.id;
  provider = await signIn(server, await createStaff(server, { role: 'provider', organizationId: orgId }));
});
afterAll(async () => server?.close());

const settingsAudits = async () =>
  (
    await server.db.pool.query<{ user_id: number; outcome: string; details: unknown }>(
      `SELECT user_id, outcome, details FROM audit_logs
        WHERE action = 'organization.settings_update' AND resource_id = $1 ORDER BY id`,
      [String(orgId)],
    )
  ).rows;

describe('organization setting timer_start', () => {
  it("starts as 'open'; an admin sets 'click', audited from and to, and the organization's users read it", async () => {
    const before = await admin.get<OrganizationSettings>(organizationSettingsPath(orgId));
    expect(before.body).toMatchObject({ id: orgId, timer_start: 'open' });

    const put = await admin.put<OrganizationSettings>(organizationSettingsPath(orgId), { require_mfa: false, timer_start: 'click' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ timer_start: 'click', require_mfa: false });
    expect((await server.db.pool.query(`SELECT timer_start FROM organizations WHERE id = $1`, [orgId])).rows[0]).toEqual({
      timer_start: 'click',
    });
    expect(await settingsAudits()).toContainEqual({
      user_id: adminId,
      outcome: 'success',
      details: { require_mfa: { from: false, to: false }, timer_start: { from: 'open', to: 'click' } },
    });

    // The patient page reads it from the organization list, which a provider may see.
    expect((await provider.get<Organization[]>('/api/organizations')).body).toEqual([
      { id: orgId, name: 'Timer Clinic', timer_start: 'click' },
    ]);

    // Left out, it keeps its value.
    expect((await admin.put<OrganizationSettings>(organizationSettingsPath(orgId), { require_mfa: false })).body.timer_start).toBe('click');
    await admin.put(organizationSettingsPath(orgId), { require_mfa: false, timer_start: 'open' });
    expect((await admin.get<OrganizationSettings>(organizationSettingsPath(orgId))).body.timer_start).toBe('open');
  });

  it('refuses an unknown value, and a provider', async () => {
    expect((await admin.put(organizationSettingsPath(orgId), { require_mfa: false, timer_start: 'later' })).status).toBe(400);
    const refused = await provider.put(organizationSettingsPath(orgId), { require_mfa: false, timer_start: 'click' });
    expect(refused.status).toBe(403);
    expect((await server.db.pool.query(`SELECT timer_start FROM organizations WHERE id = $1`, [orgId])).rows[0]).toEqual({
      timer_start: 'open',
    });
  });
});
