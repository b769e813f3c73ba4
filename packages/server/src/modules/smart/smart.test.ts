import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import {
  CLIENT_ASSERTION_TYPE,
  SMART_CLIENTS_PATH,
  SMART_CONFIGURATION_PATH,
  SMART_FHIR_CONFIGURATION_PATH,
  SMART_JWKS_TIMEOUT_MS,
  SMART_SIGNING_ALGORITHMS,
  SMART_SYSTEM_SCOPES,
  SMART_TOKEN_PATH,
  SmartErrors,
  smartClientRevokePath,
  type IngestionSourceWithSecret,
  type SmartClient,
  type SmartClientsResponse,
} from '@rpm/contracts';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { sourceNamedBy } from '../fhir/fhir.auth.ts';
import {
  buildDevice,
  buildPatient,
  buildReading,
  buildSource,
  expireSmartTokens,
} from '../../../test/support/factories.ts';
import {
  apiClient,
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import {
  requestToken,
  signAssertion,
  smartClient,
  smartKeyPair,
  smartToken,
  tokenForm,
  type SmartTestClient,
} from '../../../test/support/smart.ts';

let server: TestServer;
let admin: ApiClient;
let orgId: number;
let otherOrgId: number;
let patientId: number;
let otherPatientId: number;
let readingId: number;
/** RS384, reads patients and observations, writes observations. */
let rsClient: SmartTestClient;
/** ES384, reads patients only. */
let esClient: SmartTestClient;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

async function fhir<T = unknown>(method: 'GET' | 'POST', url: string, token: string | null, body?: unknown) {
  const res = await server.app.inject({
    method,
    url,
    headers: {
      accept: 'application/fhir+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/fhir+json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() as T, headers: res.headers };
}

const weight = (device: string, kg: number): Observation => ({
  resourceType: 'Observation',
  status: 'final',
  category: [
    { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
  effectiveDateTime: minutesAgo(20),
  device: { identifier: { value: device } },
  valueQuantity: { value: kg, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
});

beforeAll(async () => {
  server = await startTestServer();
  [orgId, otherOrgId] = [(await createOrganization(server)).id, (await createOrganization(server)).id];
  admin = await signInNewStaff(server, 'admin', orgId);
  const db = server.db.pool;
  patientId = await buildPatient(db, { firstName: 'Sam', lastName: 'Smart', organizationId: orgId });
  otherPatientId = await buildPatient(db, { firstName: 'Oda', lastName: 'Other', organizationId: otherOrgId });
  await buildDevice(db, { deviceId: 'SMART-SCALE-1', model: 'Scale', patientId, assignedFrom: '2025-01-01' });
  readingId = await buildReading(db, patientId);
  rsClient = await smartClient(server, admin, {
    organizationId: orgId,
    scopes: ['system/Patient.rs', 'system/Observation.rs', 'system/Observation.c'],
    alg: 'RS384',
  });
  esClient = await smartClient(server, admin, { organizationId: orgId, scopes: ['system/Patient.rs'], alg: 'ES384' });
}, 300_000);
afterAll(async () => server?.close());

describe('discovery', () => {
  it('publishes the same SMART configuration at the root and at the FHIR base', async () => {
    for (const path of [SMART_CONFIGURATION_PATH, SMART_FHIR_CONFIGURATION_PATH]) {
      const res = await apiClient(server).get<Record<string, unknown>>(path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({
        token_endpoint: `${server.url}${SMART_TOKEN_PATH}`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: [...SMART_SIGNING_ALGORITHMS],
        grant_types_supported: ['client_credentials'],
        scopes_supported: [...SMART_SYSTEM_SCOPES],
        capabilities: ['client-confidential-asymmetric', 'permission-v2'],
        code_challenge_methods_supported: ['S256'],
      });
    }
  });
});

describe('token endpoint', () => {
  it('answers a five-minute bearer token with the granted scopes, not cached, and audits it', async () => {
    const res = await requestToken(
      server,
      tokenForm(await signAssertion(server, rsClient), ['system/Patient.rs', 'system/Observation.rs']),
    );
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 300,
      scope: 'system/Patient.rs system/Observation.rs',
    });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{60,}$/);
    const record = await lastAuditOf(server, 'smart.token', rsClient.id);
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'smart_client' });
    expect(JSON.stringify(record)).not.toContain(res.body.access_token as string);
    // Only the token's hash is stored.
    const stored = await server.db.pool.query(
      `SELECT count(*)::int AS n FROM smart_access_tokens WHERE client_id = $1`,
      [rsClient.id],
    );
    expect(stored.rows[0].n).toBeGreaterThan(0);
    expect(server.logs()).not.toContain(res.body.access_token as string);
  });

  it('grants only what the client is allowed, and refuses a request for nothing it is allowed', async () => {
    const res = await requestToken(
      server,
      tokenForm(await signAssertion(server, esClient), ['system/Patient.rs', 'system/Observation.rs']),
    );
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('system/Patient.rs');
    const none = await requestToken(
      server,
      tokenForm(await signAssertion(server, esClient), ['system/Observation.rs']),
    );
    expect(none).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    const missing = await requestToken(server, { ...tokenForm(await signAssertion(server, esClient), []), scope: '' });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope', error_description: SmartErrors.scopeRequired },
    });
  });

  it('refuses a reused jti, and records why', async () => {
    const assertion = await signAssertion(server, rsClient);
    expect((await requestToken(server, tokenForm(assertion, ['system/Patient.rs']))).status).toBe(200);
    const again = await requestToken(server, tokenForm(assertion, ['system/Patient.rs']));
    expect(again).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: SmartErrors.assertionReplayed },
    });
    expect(await lastAuditOf(server, 'smart.token', rsClient.id)).toMatchObject({
      outcome: 'failure',
      reason: 'jti reused',
    });
  });

  it('accepts one assertion once even when it arrives twice at the same moment', async () => {
    const assertion = await signAssertion(server, esClient);
    const answers = await Promise.all(
      [1, 2].map(() => requestToken(server, tokenForm(assertion, ['system/Patient.rs']))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  it('refuses a wrong aud, a missing or distant exp, a mismatched sub and a missing jti', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Parameters<typeof signAssertion>[2], string][] = [
      ['wrong aud', { claims: { aud: `${server.url}/fhir/R4` } }, 'claim aud'],
      ['exp too far', { claims: { exp: now + 600 } }, 'exp more than 5 minutes ahead'],
      ['lifetime too long', { claims: { iat: now - 200, exp: now + 200 } }, 'lifetime over 5 minutes'],
      ['expired', { claims: { exp: now - 120 } }, 'assertion expired'],
      ['other sub', { claims: { sub: esClient.id } }, 'claim sub'],
      ['no jti', { claims: { jti: undefined } }, 'claim jti'],
    ];
    for (const [name, opts, reason] of cases) {
      const res = await requestToken(
        server,
        tokenForm(await signAssertion(server, rsClient, opts), ['system/Patient.rs']),
      );
      expect(res.status, name).toBe(401);
      expect(res.body.error, name).toBe('invalid_client');
      expect((await lastAuditOf(server, 'smart.token', rsClient.id)).reason, name).toContain(reason);
    }
    const noExp = await new SignJWT({
      iss: rsClient.id,
      sub: rsClient.id,
      aud: `${server.url}${SMART_TOKEN_PATH}`,
      jti: 'no-exp',
    })
      .setProtectedHeader({ alg: 'RS384', kid: rsClient.kid })
      .sign(rsClient.privateKey);
    expect((await requestToken(server, tokenForm(noExp, ['system/Patient.rs']))).status).toBe(401);
    expect((await lastAuditOf(server, 'smart.token', rsClient.id)).reason).toContain('claim exp');
  });

  it('refuses alg none, HS256 signed with the public key as secret, and a key it does not know', async () => {
    const claims = {
      iss: rsClient.id,
      sub: rsClient.id,
      aud: `${server.url}${SMART_TOKEN_PATH}`,
      jti: crypto.randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 120,
    };
    const none = new UnsecuredJWT(claims).encode();
    const noneRes = await requestToken(server, tokenForm(none, ['system/Patient.rs']));
    expect(noneRes).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    // The classic confusion attack: the public key's bytes used as an HMAC secret.
    const secret = new TextEncoder().encode(JSON.stringify(rsClient.publicJwk));
    const hs = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256', kid: rsClient.kid })
      .sign(secret);
    const hsRes = await requestToken(server, tokenForm(hs, ['system/Patient.rs']));
    expect(hsRes).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((await lastAuditOf(server, 'smart.token', rsClient.id)).reason).toBe('algorithm not allowed');

    const stranger = await smartKeyPair('RS384');
    const forged = await signAssertion(server, {
      id: rsClient.id,
      alg: 'RS384',
      kid: rsClient.kid,
      privateKey: stranger.privateKey,
    });
    expect((await requestToken(server, tokenForm(forged, ['system/Patient.rs']))).status).toBe(401);
    expect((await lastAuditOf(server, 'smart.token', rsClient.id)).reason).toBe('signature invalid');
  });

  it('answers RFC 6749 errors for a wrong grant, a wrong assertion type, an unknown client and a JSON body', async () => {
    const assertion = await signAssertion(server, rsClient);
    const grant = await requestToken(server, {
      ...tokenForm(assertion, ['system/Patient.rs']),
      grant_type: 'password',
    });
    expect(grant).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    const type = await requestToken(server, {
      ...tokenForm(assertion, ['system/Patient.rs']),
      client_assertion_type: 'jwt',
    });
    expect(type).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    const unknown = await signAssertion(server, { ...rsClient, id: crypto.randomUUID() });
    expect(await requestToken(server, tokenForm(unknown, ['system/Patient.rs']))).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: SmartErrors.clientUnknown },
    });
    const otherId = await requestToken(server, {
      ...tokenForm(assertion, ['system/Patient.rs']),
      client_id: esClient.id,
    });
    expect(otherId).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const json = await server.app.inject({
      method: 'POST',
      url: SMART_TOKEN_PATH,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(tokenForm(assertion, ['system/Patient.rs'])),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
    const form = new URLSearchParams(tokenForm(assertion, ['system/Patient.rs']));
    form.append('scope', 'system/Observation.rs');
    const repeated = await server.app.inject({
      method: 'POST',
      url: SMART_TOKEN_PATH,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({ error: 'invalid_request' });
    expect(server.logs()).not.toContain(assertion);
  });
});

describe('FHIR with a SMART token', () => {
  it('reads a Patient and Observations of its organization, with RS384 and ES384 clients', async () => {
    const rs = await smartToken(server, rsClient);
    const es = await smartToken(server, esClient);
    for (const token of [rs, es]) {
      const res = await fhir<Patient>('GET', `/fhir/R4/Patient/${patientId}`, token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resourceType: 'Patient', id: String(patientId) });
    }
    const record = await lastAuditOf(server, 'fhir.patient.read', String(patientId));
    expect(record).toMatchObject({ outcome: 'success' });
    expect(record.details).toMatchObject({ via: 'smart', smart_client_id: esClient.id, organization_id: orgId });
    const obs = await fhir<Observation>('GET', `/fhir/R4/Observation/${readingId}`, rs);
    expect(obs.status).toBe(200);
    const search = await fhir<{ resourceType: string }>('GET', `/fhir/R4/Observation?patient=${patientId}`, rs);
    expect(search).toMatchObject({ status: 200, body: { resourceType: 'Bundle' } });
  });

  it("answers 404 for another organization's patient, as to staff of another organization", async () => {
    const token = await smartToken(server, rsClient);
    const res = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${otherPatientId}`, token);
    expect(res.status).toBe(404);
    expect(await lastAuditOf(server, 'fhir.patient.read', String(otherPatientId))).toMatchObject({ outcome: 'denied' });
  });

  it('refuses a read outside its scopes with 403 and records the missing scope', async () => {
    const token = await smartToken(server, esClient);
    const res = await fhir<OperationOutcome>('GET', `/fhir/R4/Observation/${readingId}`, token);
    expect(res.status).toBe(403);
    expect(res.body.issue?.[0]).toMatchObject({
      code: 'security',
      diagnostics: SmartErrors.missingScope('system/Observation.r'),
    });
    expect(await lastAuditOf(server, 'fhir.observation.read', esClient.id)).toMatchObject({
      outcome: 'denied',
      resource_type: 'smart_client',
      reason: 'missing scope',
      details: expect.objectContaining({ missing_scope: 'system/Observation.r' }),
    });
    // A token narrower than the client's registration holds only what it was granted.
    const narrow = await smartToken(server, rsClient, ['system/Patient.rs']);
    expect((await fhir('GET', `/fhir/R4/Observation?patient=${patientId}`, narrow)).status).toBe(403);
  });

  it('writes an Observation with system/Observation.c, through its own source; refused without it', async () => {
    const token = await smartToken(server, rsClient);
    const res = await fhir<Observation>('POST', '/fhir/R4/Observation', token, weight('SMART-SCALE-1', 81.5));
    expect(res.status).toBe(201);
    const row = await server.db.pool.query(
      `SELECT o.source_id, c.source_id AS client_source FROM observations o, smart_clients c WHERE o.id = $1 AND c.id = $2`,
      [Number(res.body.id), rsClient.id],
    );
    expect(row.rows[0].source_id).toBe(row.rows[0].client_source);
    // That source has no secret anyone holds, and gets none: rotating it would mint a static write key.
    const rotate = await admin.post<{ message: string }>(`/api/integrations/${row.rows[0].client_source}/rotate`);
    expect(rotate.status).toBe(409);
    expect(rotate.body.message).toBe(SmartErrors.clientSource);
    expect(await lastAuditOf(server, 'integration.rotate', row.rows[0].client_source)).toMatchObject({
      outcome: 'failure',
      reason: 'source of a smart client',
    });
    const readOnly = await smartToken(server, rsClient, ['system/Observation.rs']);
    const refused = await fhir<OperationOutcome>('POST', '/fhir/R4/Observation', readOnly, weight('SMART-SCALE-1', 82));
    expect(refused.status).toBe(403);
    expect(refused.body.issue?.[0]?.diagnostics).toBe(SmartErrors.missingScope('system/Observation.c'));
  });

  it("counts a client's FHIR calls against the client, not only the address", async () => {
    const token = await smartToken(server, esClient);
    expect(sourceNamedBy(`Bearer ${token}`)).toBe(`client:${esClient.id}`);
    expect(sourceNamedBy('Bearer something-else')).toBeNull();
  });

  it('refuses an expired token with 401 invalid_token, and an unknown one', async () => {
    const token = await smartToken(server, esClient);
    await expireSmartTokens(server.db.ownerPool, esClient.id);
    const res = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${patientId}`, token);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="fhir", error="invalid_token"');
    expect(res.body.issue?.[0]?.diagnostics).toBe(SmartErrors.tokenInvalid);
    expect(await lastAuditOf(server, 'fhir.patient.read', esClient.id)).toMatchObject({
      outcome: 'failure',
      reason: 'token expired',
    });
    const unknown = await fhir('GET', `/fhir/R4/Patient/${patientId}`, `${token.slice(0, -4)}AAAA`);
    expect(unknown.status).toBe(401);
    const none = await fhir('GET', `/fhir/R4/Patient/${patientId}`, null);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="fhir"');
  });

  it('refuses a static read key, even one made with can_read, and says why', async () => {
    const legacy = await buildSource(server.db.pool, { organizationId: orgId, kind: 'fhir', canRead: true });
    const res = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${patientId}`, legacy.secret);
    expect(res.status).toBe(401);
    expect(res.body.issue?.[0]?.diagnostics).toBe(SmartErrors.staticReadKeyRetired);
    expect(await lastAuditOf(server, 'fhir.patient.read', legacy.id)).toMatchObject({
      outcome: 'failure',
      reason: 'static read keys retired',
    });
  });
});

describe('client registration', () => {
  it('lists clients for admins only, and audits it', async () => {
    const list = await admin.get<SmartClientsResponse>(SMART_CLIENTS_PATH);
    expect(list.status).toBe(200);
    expect(list.body.clients.map((c) => c.id)).toEqual(expect.arrayContaining([rsClient.id, esClient.id]));
    expect(list.body.clients.find((c) => c.id === esClient.id)).toMatchObject({
      organization_id: orgId,
      jwks_url: null,
      key_ids: [esClient.kid],
      scopes: ['system/Patient.rs'],
      revoked_at: null,
    });
    expect(await lastAuditOf(server, 'smart.client.list')).toMatchObject({ outcome: 'success' });
    const provider = await signInNewStaff(server, 'provider', orgId);
    expect((await provider.get(SMART_CLIENTS_PATH)).status).toBe(403);
  });

  it('refuses private key material, keys it cannot use, both or neither key source, and plain http', async () => {
    const { privateKey } = await generateKeyPair('RS384', { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), alg: 'RS384' };
    const hs = { kty: 'oct', k: 'c2VjcmV0', alg: 'HS256' };
    const rs256 = { ...rsClient.publicJwk, alg: 'RS256' };
    const p256 = { ...(await exportJWK((await generateKeyPair('ES256')).publicKey)) };
    const base = { name: 'Bad EHR', organization_id: orgId, scopes: ['system/Patient.rs'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ jwks: { keys: [privateJwk] } }, SmartErrors.privateKey],
      [{ jwks: { keys: [hs] } }, SmartErrors.privateKey],
      [{ jwks: { keys: [rs256] } }, SmartErrors.noUsableKey],
      [{ jwks: { keys: [p256] } }, SmartErrors.noUsableKey],
      [{ jwks: { keys: [rsClient.publicJwk] }, jwks_url: 'https://ehr.example/jwks' }, SmartErrors.keySource],
      [{}, SmartErrors.keySource],
      [{ jwks_url: 'http://ehr.example/jwks' }, SmartErrors.jwksUrl],
      [{ jwks_url: 'http://127.0.0.1:9/jwks' }, SmartErrors.jwksUrl],
    ];
    const before = await server.db.pool.query(`SELECT count(*)::int AS n FROM smart_clients`);
    for (const [extra, message] of cases) {
      const res = await admin.post<{ message: string }>(SMART_CLIENTS_PATH, { ...base, ...extra });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const after = await server.db.pool.query(`SELECT count(*)::int AS n FROM smart_clients`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(await lastAuditOf(server, 'smart.client.create')).toMatchObject({
      outcome: 'failure',
      reason: 'jwks url refused',
    });
    const unknownScope = await admin.post(SMART_CLIENTS_PATH, {
      ...base,
      jwks: { keys: [rsClient.publicJwk] },
      scopes: ['system/*.*'],
    });
    expect(unknownScope.status).toBe(400);
  });

  it('revokes a client: no new tokens, current tokens stop at once, its write source is revoked', async () => {
    const client = await smartClient(server, admin, {
      organizationId: orgId,
      scopes: ['system/Patient.rs', 'system/Observation.c'],
    });
    const token = await smartToken(server, client);
    expect((await fhir('GET', `/fhir/R4/Patient/${patientId}`, token)).status).toBe(200);
    const res = await admin.post<SmartClient>(smartClientRevokePath(client.id));
    expect(res.status).toBe(200);
    expect(res.body.revoked_at).not.toBeNull();
    expect(await lastAuditOf(server, 'smart.client.revoke', client.id)).toMatchObject({ outcome: 'success' });
    expect((await fhir('GET', `/fhir/R4/Patient/${patientId}`, token)).status).toBe(401);
    const again = await requestToken(server, tokenForm(await signAssertion(server, client), ['system/Patient.rs']));
    expect(again).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await lastAuditOf(server, 'smart.token', client.id)).toMatchObject({
      outcome: 'failure',
      reason: 'client revoked',
    });
    const source = await server.db.pool.query(
      `SELECT s.revoked_at FROM ingestion_sources s JOIN smart_clients c ON c.source_id = s.id WHERE c.id = $1`,
      [client.id],
    );
    expect(source.rows[0].revoked_at).not.toBeNull();
    expect((await admin.post(smartClientRevokePath(crypto.randomUUID()))).status).toBe(404);
  });
});

describe('a client publishing its keys at a URL', () => {
  let keyServer: Server;
  let keyServer2: TestServer;
  let jwksBody = '';

  beforeAll(async () => {
    keyServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwksBody));
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    // The loopback http exception is the operator's choice: a portal of its own with it on.
    keyServer2 = await startTestServer({ SMART_JWKS_ALLOW_LOOPBACK_HTTP: 'true' });
  }, 120_000);
  afterAll(async () => {
    keyServer?.close();
    await keyServer2?.close();
  });

  it('verifies assertions with keys fetched from the JWKS URL', async () => {
    const org = await createOrganization(keyServer2);
    const portalAdmin = await signInNewStaff(keyServer2, 'admin', org.id);
    const { privateKey, publicJwk, kid } = await smartKeyPair('ES384');
    jwksBody = JSON.stringify({ keys: [publicJwk] });
    const url = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/jwks.json`;
    const res = await portalAdmin.post<SmartClient>(SMART_CLIENTS_PATH, {
      name: 'EHR by URL',
      organization_id: org.id,
      jwks_url: url,
      scopes: ['system/Patient.rs'],
    });
    expect(res.status).toBe(201);
    const client = { id: res.body.id, alg: 'ES384' as const, kid, privateKey };
    const token = await requestToken(
      keyServer2,
      tokenForm(await signAssertion(keyServer2, client), ['system/Patient.rs']),
    );
    expect(token).toMatchObject({ status: 200, body: { scope: 'system/Patient.rs' } });
    expect(CLIENT_ASSERTION_TYPE).toContain('jwt-bearer');
  });

  it('gives up on a JWKS URL that does not answer, refusing the assertion', async () => {
    const silent = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const org = await createOrganization(keyServer2);
      const portalAdmin = await signInNewStaff(keyServer2, 'admin', org.id);
      const { privateKey, kid } = await smartKeyPair('RS384');
      const res = await portalAdmin.post<SmartClient>(SMART_CLIENTS_PATH, {
        name: 'EHR with a silent key server',
        organization_id: org.id,
        jwks_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/jwks.json`,
        scopes: ['system/Patient.rs'],
      });
      expect(res.status).toBe(201);
      const started = Date.now();
      const client = { id: res.body.id, alg: 'RS384' as const, kid, privateKey };
      const token = await requestToken(
        keyServer2,
        tokenForm(await signAssertion(keyServer2, client), ['system/Patient.rs']),
      );
      expect(token).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(Date.now() - started).toBeLessThan(SMART_JWKS_TIMEOUT_MS + 3000);
      expect(await lastAuditOf(keyServer2, 'smart.token', client.id)).toMatchObject({ reason: 'jwks url timed out' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 20_000);
});

// The write path shares its source with static write keys, which stay.
describe('FHIR write keys', () => {
  it('still write Observations', async () => {
    const key = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Writer',
        kind: 'fhir',
        organization_id: orgId,
      })
    ).body;
    const res = await fhir('POST', '/fhir/R4/Observation', key.secret, weight('SMART-SCALE-1', 80.1));
    expect(res.status).toBe(201);
  });
});
