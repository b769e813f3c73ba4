import { organizationSettingsPath, resetMfaPath, type AdminUserResponse, type OrganizationSettings } from '@rpm/contracts';
import { confirmSignIn, setUpTOTP, signIn as poolSignIn, signOut, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  poolAccessToken,
  signIn,
  startTestServer,
  type ApiClient,
  type Staff,
  type TestServer,
} from '../../../test/support/http.ts';
import { configureAmplify } from '../identity/test-support/amplify-client.ts';
import { totpCode } from '../identity/totp.ts';
import { markMfaEnabled } from '../../../test/support/factories.ts';

/** Organization-wide "require MFA", and the admin's "reset MFA" for a user who lost the phone. */

let server: TestServer;
let admin: Staff;
let adminClient: ApiClient;
let orgId: number;
let otherOrgId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server)).id;
  otherOrgId = (await createOrganization(server)).id;
  admin = await createStaff(server, { role: 'admin', organizationId: otherOrgId });
  adminClient = await signIn(server, admin);
});
afterAll(async () => server?.close());

const auditOf = async (action: string) =>
  (
    await server.db.pool.query<{ user_id: number; target_user_id: number | null; resource_id: string; outcome: string; details: unknown }>(
      `SELECT user_id, target_user_id, resource_id, outcome, details FROM audit_logs WHERE action = $1 ORDER BY id`,
      [action],
    )
  ).rows;

describe('organization-wide MFA', () => {
  it('makes every user of the organization set up MFA at the next sign-in, and only them', async () => {
    const inOrg = await createStaff(server, { role: 'provider', organizationId: orgId });
    const elsewhere = await createStaff(server, { role: 'provider', organizationId: otherOrgId });
    expect((await adminClient.get<OrganizationSettings>(organizationSettingsPath(orgId))).body.require_mfa).toBe(false);

    const on = await adminClient.put<OrganizationSettings>(organizationSettingsPath(orgId), { require_mfa: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: orgId, require_mfa: true });
    expect(await auditOf('organization.settings_update')).toContainEqual(
      expect.objectContaining({ user_id: admin.id, resource_id: String(orgId), outcome: 'success', details: { require_mfa: { from: false, to: true } } }),
    );

    await expect(poolAccessToken(server, inOrg.email, inOrg.password)).rejects.toThrow(/CONTINUE_SIGN_IN_WITH_TOTP_SETUP/);
    expect(await poolAccessToken(server, elsewhere.email, elsewhere.password)).toBeTruthy();

    await adminClient.put(organizationSettingsPath(orgId), { require_mfa: false });
    expect(await poolAccessToken(server, inOrg.email, inOrg.password)).toBeTruthy();
  });

  it('refuses a bad body and an unknown organization', async () => {
    expect((await adminClient.put(organizationSettingsPath(orgId), { require_mfa: 'yes' })).status).toBe(400);
    expect((await adminClient.put(organizationSettingsPath(orgId), {})).status).toBe(400);
    expect((await adminClient.put(organizationSettingsPath(999_999), { require_mfa: true })).status).toBe(404);
    expect((await adminClient.get(organizationSettingsPath(999_999))).status).toBe(404);
  });
});

describe('POST /api/admin/users/{id}/reset-mfa', () => {
  it('turns MFA off in the pool and the portal, audited, ends no session; MFA is set up again when required', async () => {
    const user = await createStaff(server, { role: 'provider', organizationId: orgId });
    const userClient = await signIn(server, user);
    // The user sets up TOTP, as the profile page does.
    configureAmplify(server.identity);
    await poolSignIn({ username: user.email, password: user.password });
    const setup = await setUpTOTP();
    await verifyTOTPSetup({ code: await totpCode(setup.sharedSecret) });
    await updateMFAPreference({ totp: 'PREFERRED' });
    await signOut();
    await markMfaEnabled(server.db.pool, user.id);
    expect((await server.identity.directory.getUser(user.cognitoUsername))?.mfaEnabled).toBe(true);

    const res = await adminClient.post<AdminUserResponse>(resetMfaPath(user.id));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, mfa_enabled: false, status: 'active' });
    expect((await server.identity.directory.getUser(user.cognitoUsername))?.mfaEnabled).toBe(false);
    expect(await auditOf('user.mfa_reset')).toContainEqual(
      expect.objectContaining({ user_id: admin.id, target_user_id: user.id, outcome: 'success', details: { mfa_was_enabled: true } }),
    );
    // Nothing else ends: the user's portal session still works.
    expect((await userClient.get('/api/me')).status).toBe(200);

    // The organization requires MFA: the old secret is gone, so the next sign-in sets up a new one.
    await adminClient.put(organizationSettingsPath(orgId), { require_mfa: true });
    try {
      const next = await poolSignIn({ username: user.email, password: user.password });
      expect(next.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
      if (next.nextStep.signInStep !== 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') return;
      expect(next.nextStep.totpSetupDetails.sharedSecret).not.toBe(setup.sharedSecret);
      const done = await confirmSignIn({ challengeResponse: await totpCode(next.nextStep.totpSetupDetails.sharedSecret) });
      expect(done.isSignedIn).toBe(true);
      await signOut();
    } finally {
      await adminClient.put(organizationSettingsPath(orgId), { require_mfa: false });
    }
  });

  it('is refused to providers and answers 404 for an unknown user', async () => {
    const provider = await createStaff(server, { role: 'provider', organizationId: orgId });
    const providerClient = await signIn(server, provider);
    expect((await providerClient.post(resetMfaPath(admin.id))).status).toBe(403);
    expect((await adminClient.post(resetMfaPath(999_999))).status).toBe(404);
  });
});
