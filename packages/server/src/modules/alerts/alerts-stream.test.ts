import {
  ALERT_STREAM_END_EVENT,
  ALERT_STREAM_EVENT,
  IDLE_TIMEOUT_MS,
  MAX_ALERT_STREAMS_PER_SESSION,
  type AlertStreamEndReason,
} from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  newPassword,
  poolAccessToken,
  signIn,
  type ApiClient,
  type Staff,
  type TestServer,
  startTestServer,
} from '../../../test/support/http.ts';
import { testKeys } from '../../../test/db.ts';
import { buildApp } from '../../app.ts';
import { callPool } from '../identity/test-support/harness.ts';
import { loadConfig } from '../../config.ts';
import { freePort } from '../../free-port.ts';
import { buildPatient, endSessions, idleSessions } from '../../../test/support/factories.ts';

/*
 * An alerts stream belongs to the session that opened it: real HTTP on a port, the body read as
 * the browser's EventSource would, with a second portal instance on the same database where the
 * tests say "every instance".
 */

let server: TestServer;
let second: { app: FastifyInstance; url: string };
let orgId: number;
let watcher: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const app = await buildApp({
    config,
    pool: server.db.pool,
    identity: server.identity,
    logger: false,
    auditHmacKey: testKeys.auditHmacKey,
  });
  await app.listen({ port, host: '127.0.0.1' });
  second = { app, url: config.publicUrl };
  orgId = (await createOrganization(server)).id;
  // Another session of the organization: proves each alert was streamed while the one under test heard nothing.
  watcher = await signIn(server, await newStaff());
  admin = await signIn(server, await createStaff(server, { role: 'admin', organizationId: null }));
}, 120_000);
afterAll(async () => {
  await second?.app.close();
  await server?.close();
});

const newStaff = () => createStaff(server, { role: 'provider', organizationId: orgId });

interface OpenStream {
  text(): string;
  /** Resolves when the server has ended the stream (or the test closed it). */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): Promise<void>;
}

async function openStream(client: ApiClient, base = server.url, query = ''): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/alerts/stream${query}`, {
    headers: { cookie: client.cookie! },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const ended = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value);
      }
    } catch {
      /* aborted by the test */
    }
    done = true;
  })();
  // The stream's first line comes once the server has registered it.
  await waitFor(() => text.includes(': connected'));
  return { text: () => text, ended, isEnded: () => done, close: async () => (controller.abort(), await ended) };
}

async function waitFor(condition: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  return condition();
}

/** Ends within `ms`, and says why as its last event. */
async function expectEnded(stream: OpenStream, reason: AlertStreamEndReason, ms = 5000) {
  expect(await waitFor(stream.isEnded, ms)).toBe(true);
  expect(stream.text()).toContain(`event: ${ALERT_STREAM_END_EVENT}\ndata: ${JSON.stringify({ reason })}\n\n`);
}

let seq = 0;
/** A critical alert in the organization, seen on the watcher's stream: it was streamed. */
async function raiseCriticalAlert(watching: OpenStream): Promise<number> {
  const patientId = await buildPatient(server.db.pool, {
    firstName: `S${++seq}`,
    lastName: 'Streamson',
    organizationId: orgId,
    // Rules run only for patients in the program (enrolled in RPM, Active).
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  const res = await watcher.post(`/api/patients/${patientId}/vitals`, {
    measured_at: new Date(Date.now() - 60_000 * seq).toISOString(),
    systolic: 195,
    diastolic: 100,
    pulse: 70,
  });
  expect(res.status).toBe(201);
  expect(await waitFor(() => watching.text().includes(`"patient_id":${patientId}`))).toBe(true);
  return patientId;
}

const heardAlert = (stream: OpenStream) => stream.text().includes(`event: ${ALERT_STREAM_EVENT}\n`);
const meStatus = async (client: ApiClient) => (await client.get('/api/me')).status;

describe('an alerts stream ends with its session', () => {
  it('after logout an open alerts stream receives no new alert and closes', async () => {
    const mine = await signIn(server, await newStaff());
    const watching = await openStream(watcher);
    // One stream on the instance that answers the logout, one on the other.
    const here = await openStream(mine);
    const there = await openStream(mine, second.url, '?max_seconds=3600');
    expect((await mine.post('/api/logout')).status).toBeLessThan(300);
    expect(await meStatus(mine)).toBe(401);
    await expectEnded(here, 'session');
    await expectEnded(there, 'session');
    await raiseCriticalAlert(watching);
    expect(heardAlert(here)).toBe(false);
    expect(heardAlert(there)).toBe(false);
    await watching.close();
  });

  it('after a global sign-out an open alerts stream receives no new alert and closes', async () => {
    const staff = await newStaff();
    const mine = await signIn(server, staff);
    const watching = await openStream(watcher);
    const stream = await openStream(mine, second.url);
    await server.identity.directory.signOutEverywhere(staff.cognitoUsername);
    await expectEnded(stream, 'session');
    await raiseCriticalAlert(watching);
    expect(heardAlert(stream)).toBe(false);
    await watching.close();
  });

  it('after the user is disabled an open alerts stream receives no new alert and closes', async () => {
    const staff = await newStaff();
    const mine = await signIn(server, staff);
    const watching = await openStream(watcher);
    const stream = await openStream(mine, second.url);
    expect((await admin.post(`/api/admin/users/${staff.id}/disable`)).status).toBe(200);
    await expectEnded(stream, 'session');
    await raiseCriticalAlert(watching);
    expect(heardAlert(stream)).toBe(false);
    await watching.close();
  });

  it("after a password change the other session's stream closes, and the changing session's stays", async () => {
    const staff = await newStaff();
    const sessionOf = async (access: string) => {
      const res = await apiClient(server).post('/api/token', { token: access });
      expect(res.status).toBe(200);
      return apiClient(server, String([res.headers['set-cookie']].flat()[0]).split(';')[0]!);
    };
    const mineAccess = await poolAccessToken(server, staff.email, staff.password);
    const kept = await sessionOf(mineAccess);
    const ended = await sessionOf(await poolAccessToken(server, staff.email, staff.password));
    const watching = await openStream(watcher);
    const keptStream = await openStream(kept, second.url);
    const endedStream = await openStream(ended, second.url);
    const change = await callPool(`${server.url}/cognito`, 'ChangePassword', {
      AccessToken: mineAccess,
      PreviousPassword: staff.password,
      ProposedPassword: newPassword(),
    });
    expect(change.status).toBe(200);
    await expectEnded(endedStream, 'session');
    const patientId = await raiseCriticalAlert(watching);
    expect(heardAlert(endedStream)).toBe(false);
    expect(await waitFor(() => keptStream.text().includes(`"patient_id":${patientId}`))).toBe(true);
    expect(keptStream.isEnded()).toBe(false);
    await keptStream.close();
    await watching.close();
  });

  it('a session ended without a notification gets no event: the stream reads its session before writing', async () => {
    const staff: Staff = await newStaff();
    const mine = await signIn(server, staff);
    const watching = await openStream(watcher);
    const stream = await openStream(mine);
    // As a row changed behind the portal's back (no NOTIFY): only the stream's own check can see it.
    await endSessions(server.db.ownerPool, { userId: staff.id }, 'logout');
    await raiseCriticalAlert(watching);
    await expectEnded(stream, 'session');
    expect(heardAlert(stream)).toBe(false);
    await watching.close();
  });
});

describe('an alerts stream keeps to the session limits', () => {
  it("a stream asked for max_seconds=3600 ends by the session's idle deadline, not after the hour", async () => {
    const staff = await newStaff();
    const mine = await signIn(server, staff);
    // Two seconds of idle time left.
    await idleSessions(server.db.ownerPool, { userId: staff.id }, `${IDLE_TIMEOUT_MS - 2000} milliseconds`);
    const before = await server.db.pool.query<{ last_seen_at: Date }>(
      `SELECT last_seen_at FROM sessions WHERE user_id = $1`,
      [staff.id],
    );
    const started = Date.now();
    const stream = await openStream(mine, server.url, '?max_seconds=3600');
    await expectEnded(stream, 'session', 6000);
    expect(Date.now() - started).toBeLessThan(5000);
    // Opening the stream did not slide the idle window: the session is over.
    const after = await server.db.pool.query<{ last_seen_at: Date }>(
      `SELECT last_seen_at FROM sessions WHERE user_id = $1`,
      [staff.id],
    );
    expect(after.rows[0]!.last_seen_at).toEqual(before.rows[0]!.last_seen_at);
    expect(await meStatus(mine)).toBe(401);
  });

  it('activity elsewhere in the session moves the stream past its first idle deadline', async () => {
    const staff = await newStaff();
    const mine = await signIn(server, staff);
    await idleSessions(server.db.ownerPool, { userId: staff.id }, `${IDLE_TIMEOUT_MS - 1500} milliseconds`);
    const stream = await openStream(mine);
    // The person uses the portal: an ordinary request slides the window.
    expect(await meStatus(mine)).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
    expect(stream.isEnded()).toBe(false);
    await stream.close();
  });

  it(`one session opening 40 streams keeps only the newest ${MAX_ALERT_STREAMS_PER_SESSION} open`, async () => {
    // The review held 40 streams open on one session; each older one is now ended as superseded.
    const mine = await signIn(server, await newStaff());
    const streams: OpenStream[] = [];
    for (let i = 0; i < 40; i++) streams.push(await openStream(mine));
    const older = streams.slice(0, 40 - MAX_ALERT_STREAMS_PER_SESSION);
    const newest = streams.slice(40 - MAX_ALERT_STREAMS_PER_SESSION);
    for (const s of older) await expectEnded(s, 'superseded');
    await new Promise((r) => setTimeout(r, 200));
    expect(newest.map((s) => s.isEnded())).toEqual(newest.map(() => false));
    for (const s of newest) await s.close();
  });

  it(`a session holds at most ${MAX_ALERT_STREAMS_PER_SESSION} streams: the oldest closes`, async () => {
    const staff = await newStaff();
    const mine = await signIn(server, staff);
    const streams: OpenStream[] = [];
    for (let i = 0; i < MAX_ALERT_STREAMS_PER_SESSION; i++) streams.push(await openStream(mine));
    await new Promise((r) => setTimeout(r, 200));
    expect(streams.map((s) => s.isEnded())).toEqual(streams.map(() => false));
    const newest = await openStream(mine);
    await expectEnded(streams[0]!, 'superseded');
    const open = [...streams.slice(1), newest];
    expect(open.map((s) => s.isEnded())).toEqual(open.map(() => false));
    // The others still carry alerts.
    const watching = await openStream(watcher);
    const patientId = await raiseCriticalAlert(watching);
    for (const s of open) expect(await waitFor(() => s.text().includes(`"patient_id":${patientId}`))).toBe(true);
    // Another session of the same person (another browser) has a limit of its own.
    const elsewhere = await openStream(await signIn(server, staff));
    await new Promise((r) => setTimeout(r, 200));
    expect([...open, elsewhere].map((s) => s.isEnded())).toEqual([...open, elsewhere].map(() => false));
    for (const s of [...open, elsewhere, watching]) await s.close();
  });
});
