import {
  OBSERVATION_RETENTION_MONTHS_MAX,
  OBSERVATION_RETENTION_MONTHS_MIN,
  ObservationRetentionErrors,
  organizationSettingsPath,
  type OrganizationSettings,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';

/** How long an organization keeps its readings: set by admins, in the bounds billing needs, audited. */

let server: TestServer;
let orgId: number;
let admin: ApiClient;
let adminId: number;
let provider: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server, 'Retention Clinic')).id;
  [admin, provider] = [await signInNewStaff(server, 'admin', orgId), await signInNewStaff(server, 'provider', orgId)];
  adminId = (await admin.get<{ user: { id: number } }>('/api/me')).body.user.id;
});
afterAll(async () => server?.close());

const stored = async () =>
  (await server.db.pool.query(`SELECT observation_retention_months AS m FROM organizations WHERE id = $1`, [orgId]))
    .rows[0].m as number | null;
const settingsAudits = async () =>
  (
    await server.db.pool.query<{ user_id: number; outcome: string; reason: string | null; details: unknown }>(
      `SELECT user_id, outcome, reason, details FROM audit_logs
        WHERE action = 'organization.settings_update' AND resource_id = $1 ORDER BY id`,
      [String(orgId)],
    )
  ).rows;

describe('organization setting observation_retention_months', () => {
  it('keeps everything at first; an admin sets it, audited from and to, left out keeps it, null clears it', async () => {
    expect((await admin.get<OrganizationSettings>(organizationSettingsPath(orgId))).body).toMatchObject({
      id: orgId,
      observation_retention_months: null,
    });

    const put = await admin.put<OrganizationSettings>(organizationSettingsPath(orgId), {
      require_mfa: false,
      observation_retention_months: 36,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ observation_retention_months: 36, require_mfa: false });
    expect(await stored()).toBe(36);
    expect(await settingsAudits()).toContainEqual({
      user_id: adminId,
      outcome: 'success',
      reason: null,
      details: { require_mfa: { from: false, to: false }, observation_retention_months: { from: null, to: 36 } },
    });

    const kept = await admin.put<OrganizationSettings>(organizationSettingsPath(orgId), { require_mfa: false });
    expect(kept.body.observation_retention_months).toBe(36);

    const cleared = await admin.put<OrganizationSettings>(organizationSettingsPath(orgId), {
      require_mfa: false,
      observation_retention_months: null,
    });
    expect(cleared.body.observation_retention_months).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('accepts the bounds and refuses what billing evidence cannot spare, with the contracts’ texts, audited', async () => {
    for (const months of [OBSERVATION_RETENTION_MONTHS_MIN, OBSERVATION_RETENTION_MONTHS_MAX]) {
      const res = await admin.put(organizationSettingsPath(orgId), {
        require_mfa: false,
        observation_retention_months: months,
      });
      expect(res.status).toBe(200);
      expect(await stored()).toBe(months);
    }
    const refusals: Array<[unknown, string | null]> = [
      [OBSERVATION_RETENTION_MONTHS_MIN - 1, ObservationRetentionErrors.tooShort],
      [1, ObservationRetentionErrors.tooShort],
      [0, ObservationRetentionErrors.tooShort],
      [OBSERVATION_RETENTION_MONTHS_MAX + 1, ObservationRetentionErrors.tooLong],
      // Not a whole number: the schema refuses it before the service.
      [30.5, null],
      ['36', null],
    ];
    for (const [months, message] of refusals) {
      const res = await admin.put<{ message: string }>(organizationSettingsPath(orgId), {
        require_mfa: false,
        observation_retention_months: months,
      });
      expect(res.status, String(months)).toBe(400);
      if (message) expect(res.body.message).toBe(message);
      expect(await stored()).toBe(OBSERVATION_RETENTION_MONTHS_MAX);
    }
    expect(await settingsAudits()).toContainEqual(
      expect.objectContaining({ user_id: adminId, outcome: 'failure', reason: 'retention out of range' }),
    );
    // The database holds the same floor for any other writer.
    await expect(
      server.db.ownerPool.query(`UPDATE organizations SET observation_retention_months = $2 WHERE id = $1`, [
        orgId,
        OBSERVATION_RETENTION_MONTHS_MIN - 1,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('is for admins only', async () => {
    const refused = await provider.put(organizationSettingsPath(orgId), {
      require_mfa: false,
      observation_retention_months: 48,
    });
    expect(refused.status).toBe(403);
    expect((await provider.get(organizationSettingsPath(orgId))).status).toBe(403);
    expect(await stored()).toBe(OBSERVATION_RETENTION_MONTHS_MAX);
  });
});
