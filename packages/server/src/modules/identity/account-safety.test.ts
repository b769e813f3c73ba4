import { confirmSignIn, setUpTOTP, signIn, signOut, updateMFAPreference, updatePassword, verifyTOTPSetup } from 'aws-amplify/auth';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from './index.ts';
import { configureAmplify } from './test-support/amplify-client.ts';
import { callPool, startPool, type PoolHarness } from './test-support/harness.ts';
import { totpCode } from './totp.ts';
import { buildOrganization, buildOutboxMessage, buildStaff } from '../../../test/support/factories.ts';

/**
 * What an attacker tries on the pool's public endpoint: telling who has an account, spelling an
 * address differently, control characters; and what an auditor asks of it: every authentication
 * event in the portal's audit log, no secret in any log line, multi-step changes all or nothing.
 */

const execFileAsync = promisify(execFile);
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let h: PoolHarness;
let clientId: string;
beforeAll(async () => {
  // Delays are tested apart (throttle-and-mfa.test.ts): here they would only slow the steps down.
  h = await startPool({ options: { throttle: { ipPerMinute: 100_000, accountMaxDelayMs: 0, addressMaxDelayMs: 0 } } });
  clientId = h.identity.appConfig.clientId;
  configureAmplify(h.identity);
});
afterAll(async () => h?.close());
afterEach(async () => {
  await signOut().catch(() => {});
});

const PASSWORD = 'Str0ng-Passw0rd!';
let counter = 0;

async function confirmedUser(email = `confirmed${++counter}@example.com`) {
  const { user } = await h.identity.directory.createUser({ email, suppressMessage: true });
  await h.identity.directory.setPassword(user.username, PASSWORD, true);
  return { email, username: user.username };
}

async function invitedUser(email = `invited${++counter}@example.com`) {
  const { user, temporaryPassword } = await h.identity.directory.createUser({ email, suppressMessage: true });
  return { email, username: user.username, temporaryPassword };
}

async function disabledUser() {
  const u = await confirmedUser(`disabled${++counter}@example.com`);
  await h.identity.directory.disableUser(u.username);
  return u;
}

/** A portal staff row linked to the pool user, as the portal's registration makes it. */
async function linkPortalUser(email: string, username: string): Promise<number> {
  const org = await buildOrganization(h.db.pool, { name: `Org ${email}` });
  const staff = await buildStaff(h.db.pool, 'provider', {
    email,
    firstName: 'Test',
    lastName: 'User',
    organizationId: org.id,
    cognitoUsername: username,
    cognitoSub: username,
  });
  return staff.id;
}

const forgot = (username: string) => callPool(h.endpoint, 'ForgotPassword', { ClientId: clientId, Username: username });
const confirm = (username: string, code: string, password = 'N3w-Passw0rd!!') =>
  callPool(h.endpoint, 'ConfirmForgotPassword', { ClientId: clientId, Username: username, ConfirmationCode: code, Password: password });

/** The answer with the letters of the masked address blanked: only those may differ. */
function shapeOf(answer: { status: number; json: Record<string, unknown> }) {
  return JSON.parse(JSON.stringify(answer).replace(/"Destination":"[a-z0-9]\*\*\*@[a-z0-9]\*\*\*"/, '"Destination":"?***@?***"')) as unknown;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('no user enumeration', () => {
  // A timing comparison: a stall of the machine (other test files run beside this one) can push
  // one kind's median up once; the bounds stay, and a real difference fails every attempt.
  it('answers ForgotPassword alike for unknown, invited, disabled and confirmed users, in comparable time', { retry: 2 }, async () => {
    const logins = {
      unknown: 'ghost@example.com',
      invited: (await invitedUser()).email,
      disabled: (await disabledUser()).email,
      confirmed: (await confirmedUser()).email,
    };
    const answers = Object.fromEntries(
      await Promise.all(Object.entries(logins).map(async ([kind, login]) => [kind, await forgot(login)] as const)),
    );
    for (const kind of Object.keys(logins)) {
      expect(answers[kind]!.status, kind).toBe(200);
      expect(shapeOf(answers[kind]!), kind).toEqual({
        status: 200,
        json: { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: '?***@?***' } },
      });
    }
    expect(answers.unknown!.json).toEqual({ CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'g***@e***' } });
    // Only the confirmed user got a code.
    expect(await readOutbox(h.db.pool, logins.confirmed)).not.toBeNull();
    expect(await readOutbox(h.db.pool, logins.invited)).toBeNull();

    // Timing: interleaved, so that load on the machine hits every kind alike.
    const times: Record<string, number[]> = { unknown: [], invited: [], confirmed: [] };
    for (let i = 0; i < 4; i++) {
      for (const kind of Object.keys(times)) {
        const login = kind === 'unknown' ? `ghost${i}@example.com` : logins[kind as 'invited' | 'confirmed'];
        const started = performance.now();
        await (i % 2 ? confirm(login, '123456') : forgot(login));
        times[kind]!.push(performance.now() - started);
      }
    }
    const medians = Object.values(times).map(median);
    expect(Math.min(...medians)).toBeGreaterThanOrEqual(240);
    expect(Math.max(...medians) - Math.min(...medians)).toBeLessThan(150);
  });

  it('answers ConfirmForgotPassword alike: a wrong code, or no live code, whoever the user is', async () => {
    const invited = await invitedUser();
    const confirmed = await confirmedUser();
    const kinds = { unknown: 'nobody-here@example.com', invited: invited.email, confirmed: confirmed.email };
    // Before any request: no live code for anyone.
    for (const login of Object.values(kinds)) {
      expect((await confirm(login, '123456')).json, login).toEqual({
        __type: 'ExpiredCodeException',
        message: 'Invalid code provided, please request a code again.',
      });
    }
    for (const login of Object.values(kinds)) await forgot(login);
    const code = /code: (\d{6})/.exec((await readOutbox(h.db.pool, confirmed.email))!.text)![1]!;
    const wrong = code === '000000' ? '000001' : '000000';
    for (const login of Object.values(kinds)) {
      const answer = await confirm(login, wrong);
      expect(answer.status, login).toBe(400);
      expect(answer.json, login).toEqual({ __type: 'CodeMismatchException', message: 'Invalid verification code provided, please try again.' });
      // A weak password is refused first, for everyone alike.
      expect((await confirm(login, wrong, 'weak')).json.__type, login).toBe('InvalidPasswordException');
    }
  });

  it('gives unknown users a decoy id shaped exactly like a real one', async () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const variants = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const answer = await callPool(h.endpoint, 'InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: `decoy${i}@example.com`, SRP_A: 'abcdef0123' },
      });
      const id = (answer.json.ChallengeParameters as Record<string, string>).USER_ID_FOR_SRP!;
      expect(id).toMatch(v4);
      variants.add(id[19]!);
    }
    // randomUUID() spreads the variant over 8, 9, a and b: so must the decoys.
    expect(variants.size).toBeGreaterThan(1);
    const real = await confirmedUser();
    expect(real.username).toMatch(v4);
  });

  it('resolves a Kelvin-sign spelling of an address to the same account everywhere', async () => {
    const kelvin = '\u212Aelvin@example.com'; // KELVIN SIGN, NFKC "K"
    const u = await confirmedUser('kelvin@example.com');
    expect((await h.identity.directory.getUser(kelvin))?.username).toBe(u.username);
    await expect(h.identity.directory.createUser({ email: kelvin, suppressMessage: true })).rejects.toMatchObject({
      name: 'UsernameExistsException',
    });
    await forgot(kelvin);
    const message = await readOutbox(h.db.pool, 'kelvin@example.com');
    expect(message?.to).toBe('kelvin@example.com');
    const code = /code: (\d{6})/.exec(message!.text)![1]!;
    expect((await confirm(kelvin, code, 'Kelv1n-Passw0rd!')).status).toBe(200);
    expect((await signIn({ username: '\u212AELVIN@EXAMPLE.COM', password: 'Kelv1n-Passw0rd!' })).isSignedIn).toBe(true);
  });
});

describe('control characters', () => {
  const operations = [
    'InitiateAuth',
    'RespondToAuthChallenge',
    'ForgotPassword',
    'ConfirmForgotPassword',
    'GetUser',
    'ChangePassword',
    'GlobalSignOut',
    'AssociateSoftwareToken',
    'VerifySoftwareToken',
    'SetUserMFAPreference',
    'RevokeToken',
    'GetTokensFromRefreshToken',
  ];
  it.each(['\u0000', '\u0007', '\u001b', '\u007f'])('answers InvalidParameterException, never 500, for %j in any field', async (c) => {
    for (const op of operations) {
      const bodies = [
        { ClientId: clientId, Username: `a${c}b@example.com`, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: `x${c}`, SRP_A: 'ab' } },
        { ClientId: clientId, AccessToken: `tok${c}en`, Session: 's', UserCode: '123456' },
        { ClientId: clientId, [`Key${c}`]: 'value', ChallengeResponses: { USERNAME: `u${c}` } },
      ];
      for (const body of bodies) {
        const answer = await callPool(h.endpoint, op, body);
        expect(answer.status, `${op} ${JSON.stringify(body)}`).toBe(400);
        expect(answer.json.__type, op).toBe('InvalidParameterException');
      }
    }
  });
});

describe('authentication events in the audit log', () => {
  interface Row {
    user_id: number | null;
    target_user_id: number | null;
    action: string;
    outcome: string;
    resource_type: string;
    resource_id: string | null;
    ip_address: string | null;
    user_agent: string | null;
    request_id: string | null;
    reason: string | null;
    details: Record<string, unknown> | null;
  }
  const rowsFor = async (username: string) =>
    (
      await h.db.pool.query<Row>(
        `SELECT user_id, target_user_id, action, outcome, resource_type, resource_id, ip_address, user_agent, request_id, reason, details
           FROM audit_logs WHERE resource_id = $1 ORDER BY id`,
        [username],
      )
    ).rows;

  it('records sign-in success and failure, password change, MFA on and off, reset and global sign-out, with who, where and how', async () => {
    const u = await confirmedUser();
    const portalId = await linkPortalUser(u.email, u.username);
    expect((await signIn({ username: u.email, password: 'Wrong-Passw0rd!' }).catch((e: Error) => e.name))).toBe('NotAuthorizedException');
    expect((await signIn({ username: u.email, password: PASSWORD })).isSignedIn).toBe(true);
    await updatePassword({ oldPassword: 'Wrong-Passw0rd!', newPassword: 'Chang3d-Passw0rd!' }).catch(() => {});
    await updatePassword({ oldPassword: PASSWORD, newPassword: 'Chang3d-Passw0rd!' });
    const setup = await setUpTOTP();
    await verifyTOTPSetup({ code: await totpCode(setup.sharedSecret) });
    await updateMFAPreference({ totp: 'PREFERRED' });
    await updateMFAPreference({ totp: 'DISABLED' });
    await signOut({ global: true });
    await forgot(u.email);
    const code = /code: (\d{6})/.exec((await readOutbox(h.db.pool, u.email))!.text)![1]!;
    await confirm(u.email, code === '000000' ? '000001' : '000000');
    await confirm(u.email, code, 'Res3t-Passw0rd!');

    const rows = await rowsFor(u.username);
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([
      ['auth.sign_in', 'failure'],
      ['auth.sign_in', 'success'],
      ['auth.password_change', 'failure'],
      ['auth.password_change', 'success'],
      ['auth.mfa_enable', 'success'],
      ['auth.mfa_disable', 'success'],
      ['auth.global_sign_out', 'success'],
      ['auth.password_reset_request', 'success'],
      ['auth.password_reset', 'failure'],
      ['auth.password_reset', 'success'],
    ]);
    for (const r of rows) {
      expect(r.resource_type).toBe('auth');
      expect(r.target_user_id).toBe(portalId);
      expect(r.ip_address).toBe('127.0.0.1');
      expect(r.user_agent).toBeTruthy();
      expect(r.request_id).toBeTruthy();
    }
    // Who acted: the user when they proved it; nobody for a failed sign-in or a reset by code.
    expect(rows[0]!.user_id).toBeNull();
    expect(rows[1]!.user_id).toBe(portalId);
    expect(rows[3]!.user_id).toBe(portalId);
    expect(rows[0]!.reason).toBe('wrong password');
    // No secret or code in any record.
    const text = JSON.stringify(rows);
    for (const secret of [PASSWORD, 'Wrong-Passw0rd!', 'Chang3d-Passw0rd!', 'Res3t-Passw0rd!', code, setup.sharedSecret]) {
      expect(text).not.toContain(secret);
    }
  });

  it('records a delayed attempt, and a reset asked for an unknown address without a user', async () => {
    const p = await startPool({ options: { throttle: { ipPerMinute: 100_000, freeFailures: 1, baseDelayMs: 60_000 } } });
    try {
      const u = await p.identity.directory.createUser({ email: 'slow@example.com', suppressMessage: true });
      const start = () =>
        callPool(p.endpoint, 'ConfirmForgotPassword', {
          ClientId: p.identity.appConfig.clientId,
          Username: 'slow@example.com',
          ConfirmationCode: '123456',
          Password: 'N3w-Passw0rd!!',
        });
      await callPool(p.endpoint, 'ForgotPassword', { ClientId: p.identity.appConfig.clientId, Username: 'slow@example.com' });
      expect((await start()).json.__type).toBe('CodeMismatchException');
      expect((await start()).json.__type).toBe('TooManyRequestsException');
      const { rows } = await p.db.pool.query<{ action: string; outcome: string; reason: string; details: Record<string, unknown> }>(
        `SELECT action, outcome, reason, details FROM audit_logs WHERE resource_id = $1 AND action = 'auth.throttle'`,
        [u.user.username],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ outcome: 'failure', details: { counter: 'reset-code', scope: 'account', failures: 1 } });
      await callPool(p.endpoint, 'ForgotPassword', { ClientId: p.identity.appConfig.clientId, Username: 'nobody@example.com' });
      const unknown = await p.db.pool.query<{ reason: string; resource_id: string | null }>(
        `SELECT reason, resource_id FROM audit_logs WHERE action = 'auth.password_reset_request' ORDER BY id DESC LIMIT 1`,
      );
      expect(unknown.rows[0]).toEqual({ reason: 'no code sent: unknown account', resource_id: null });
    } finally {
      await p.close();
    }
  });
});

describe('multi-step account changes', () => {
  it('confirms a forgotten password all or nothing: a failure half way leaves the code and the old password', async () => {
    const u = await confirmedUser();
    expect((await signIn({ username: u.email, password: PASSWORD })).isSignedIn).toBe(true);
    await signOut();
    await forgot(u.email);
    const code = /code: (\d{6})/.exec((await readOutbox(h.db.pool, u.email))!.text)![1]!;
    // The last step (ending the user's sign-ins) fails, as a lost connection would make it
    // (a trigger, set by the database owner: the portal's runtime role cannot).
    await h.db.ownerPool.query(`
      CREATE FUNCTION pg_temp_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated failure'; END $$`);
    await h.db.ownerPool.query(`CREATE TRIGGER fail_revoke BEFORE UPDATE ON identity.refresh_tokens FOR EACH STATEMENT EXECUTE FUNCTION pg_temp_fail()`);
    try {
      const failed = await confirm(u.email, code, 'Res3t-Passw0rd!');
      expect(failed.status).toBe(500);
    } finally {
      await h.db.ownerPool.query('DROP TRIGGER fail_revoke ON identity.refresh_tokens');
      await h.db.ownerPool.query('DROP FUNCTION pg_temp_fail()');
    }
    // Nothing of it happened: the old password still works, and the code still does its job.
    expect((await signIn({ username: u.email, password: PASSWORD })).isSignedIn).toBe(true);
    await signOut();
    expect((await confirm(u.email, code, 'Res3t-Passw0rd!')).status).toBe(200);
    expect((await signIn({ username: u.email, password: 'Res3t-Passw0rd!' })).isSignedIn).toBe(true);
  });

  it('sets the first password and signs in all or nothing', async () => {
    const u = await invitedUser();
    const first = await signIn({ username: u.email, password: u.temporaryPassword });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    await h.db.ownerPool.query(`
      CREATE FUNCTION pg_temp_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated failure'; END $$`);
    await h.db.ownerPool.query(`CREATE TRIGGER fail_sign_in BEFORE INSERT ON identity.refresh_tokens FOR EACH ROW EXECUTE FUNCTION pg_temp_fail()`);
    try {
      await expect(confirmSignIn({ challengeResponse: 'F1rst-Passw0rd!' })).rejects.toMatchObject({ name: 'InternalErrorException' });
    } finally {
      await h.db.ownerPool.query('DROP TRIGGER fail_sign_in ON identity.refresh_tokens');
      await h.db.ownerPool.query('DROP FUNCTION pg_temp_fail()');
    }
    // The temporary password is still the one, and the user is still invited.
    expect((await h.identity.directory.getUser(u.username))?.status).toBe('FORCE_CHANGE_PASSWORD');
    const again = await signIn({ username: u.email, password: u.temporaryPassword });
    expect(again.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    expect((await confirmSignIn({ challengeResponse: 'F1rst-Passw0rd!' })).isSignedIn).toBe(true);
  });
});

describe('secrets and the outbox', () => {
  it('never writes a temporary password or a reset code into a log line, at any level', async () => {
    const before = h.logs.length;
    const { user, temporaryPassword } = await h.identity.directory.createUser({ email: `logged${++counter}@example.com` });
    await h.identity.directory.setPassword(user.username, PASSWORD, true);
    await forgot(user.email);
    const code = /code: (\d{6})/.exec((await readOutbox(h.db.pool, user.email))!.text)![1]!;
    const lines = h.logs.slice(before).join('\n');
    expect(lines).toContain('outbox');
    expect(lines).not.toContain(temporaryPassword);
    expect(lines).not.toContain(code);
  });

  it('keeps outbox messages for 7 days at most', async () => {
    const { pruneExpired } = await import('./housekeeping.ts');
    await buildOutboxMessage(h.db.pool, { kind: 'reset-code', recipient: 'old@example.com', body: 'old', at: { ago: '7 days 1 minute' } });
    await buildOutboxMessage(h.db.pool, { kind: 'reset-code', recipient: 'recent@example.com', body: 'recent', at: { ago: '6 days' } });
    await pruneExpired(h.db.pool, 7);
    expect(await readOutbox(h.db.pool, 'old@example.com')).toBeNull();
    expect(await readOutbox(h.db.pool, 'recent@example.com')).not.toBeNull();
  });
});

describe('npm run outbox', () => {
  it('prints the undelivered messages for an operator, and marks them delivered when asked', async () => {
    const email = `operator${++counter}@example.com`;
    const { temporaryPassword } = await h.identity.directory.createUser({ email });
    const run = (args: string[]) =>
      execFileAsync(process.execPath, ['--conditions=@rpm/source', '--import', 'tsx', 'src/modules/identity/outbox-cli.ts', ...args], {
        cwd: SERVER_DIR,
        env: { ...process.env, DATABASE_URL: h.db.url },
      });
    const first = await run(['--mark-delivered']);
    expect(first.stdout).toContain(`To: ${email}`);
    expect(first.stdout).toContain(temporaryPassword);
    const second = await run([]);
    expect(second.stdout).not.toContain(email);
    expect(second.stdout).toContain('0 undelivered message(s)');
  }, 60_000); // two child processes, each compiling the script
});
