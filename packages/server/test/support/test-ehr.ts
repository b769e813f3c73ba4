/**
 * A minimal SMART-compatible EHR for tests: an authorization server for the EHR launch (SMART App
 * Launch 2.x, authorization code with PKCE S256, public client) and a FHIR endpoint that serves
 * the patients it is given. No user interface: /authorize answers with a code at once. It checks
 * what a real EHR checks (client id, redirect URI, launch context, audience, PKCE, code use), so a
 * portal that skips a step fails against it. Test code only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestEhrPatient {
  id: string;
  identifiers: { system: string; value: string }[];
}

export interface TestEhrOptions {
  clientId: string;
  /** The portal's redirect URI as registered in the EHR. */
  redirectUri: string;
  patients: TestEhrPatient[];
}

export interface TestEhr {
  /** The EHR's FHIR base URL: the `iss` it sends. */
  iss: string;
  /** Puts a patient in context for a launch id (what the EHR does when a chart opens the app). */
  launchFor(launch: string, patientId: string): void;
  /** What happened, for assertions: each step's outcome. */
  events: string[];
  /** Every access token it issued, to check that none ever reaches the browser. */
  issuedTokens: string[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  patientId: string;
  scope: string;
  used: boolean;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export async function startTestEhr(options: TestEhrOptions): Promise<TestEhr> {
  const launches = new Map<string, string>();
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, string>();
  const issuedTokens: string[] = [];
  const events: string[] = [];
  let origin = '';
  const fhirBase = () => `${origin}/fhir`;

  const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const oauthError = (res: ServerResponse, error: string, step: string) => {
    events.push(`${step}: ${error}`);
    json(res, 400, { error });
  };

  const authorize = (url: URL, res: ServerResponse) => {
    const p = url.searchParams;
    const fail = (why: string) => {
      events.push(`authorize: ${why}`);
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(why);
    };
    // Never redirect to an unregistered address, even with an error.
    if (p.get('client_id') !== options.clientId) return fail('unknown client_id');
    if (p.get('redirect_uri') !== options.redirectUri) return fail('redirect_uri not registered');
    const back = new URL(options.redirectUri);
    const state = p.get('state');
    const refuse = (error: string) => {
      events.push(`authorize: ${error}`);
      back.searchParams.set('error', error);
      if (state) back.searchParams.set('state', state);
      res.writeHead(302, { location: back.href });
      res.end();
    };
    if (p.get('response_type') !== 'code') return refuse('unsupported_response_type');
    if (!state) return refuse('invalid_request');
    if (p.get('aud') !== fhirBase()) return refuse('invalid_request');
    if (p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge')) return refuse('invalid_request');
    const scope = p.get('scope') ?? '';
    if (!scope.split(' ').includes('launch')) return refuse('invalid_scope');
    const patientId = launches.get(p.get('launch') ?? '');
    if (!patientId) return refuse('invalid_request');
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      clientId: options.clientId,
      redirectUri: options.redirectUri,
      challenge: p.get('code_challenge')!,
      patientId,
      scope,
      used: false,
    });
    events.push('authorize: code issued');
    back.searchParams.set('code', code);
    back.searchParams.set('state', state);
    res.writeHead(302, { location: back.href });
    res.end();
  };

  const token = (body: URLSearchParams, res: ServerResponse) => {
    if (body.get('grant_type') !== 'authorization_code') return oauthError(res, 'unsupported_grant_type', 'token');
    const pending = codes.get(body.get('code') ?? '');
    if (!pending || pending.used) return oauthError(res, 'invalid_grant', 'token');
    pending.used = true;
    if (body.get('client_id') !== pending.clientId) return oauthError(res, 'invalid_client', 'token');
    if (body.get('redirect_uri') !== pending.redirectUri) return oauthError(res, 'invalid_grant', 'token');
    const verifier = body.get('code_verifier');
    if (!verifier || s256(verifier) !== pending.challenge) return oauthError(res, 'invalid_grant', 'token');
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, pending.patientId);
    issuedTokens.push(accessToken);
    events.push('token: issued');
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 300,
      scope: pending.scope,
      patient: pending.patientId,
    });
  };

  const readPatient = (id: string, req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization ?? '';
    const inContext = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (!inContext) {
      events.push('patient: no token');
      return json(res, 401, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] }, 'application/fhir+json');
    }
    // A patient-context token reads its own patient only.
    const patient = options.patients.find((p) => p.id === id);
    if (!patient || inContext !== id) {
      events.push('patient: not found');
      return json(res, 404, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] }, 'application/fhir+json');
    }
    events.push('patient: read');
    json(res, 200, { resourceType: 'Patient', id: patient.id, identifier: patient.identifiers }, 'application/fhir+json');
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === '/fhir/.well-known/smart-configuration') {
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        capabilities: ['launch-ehr', 'client-public', 'context-ehr-patient', 'permission-v2', 'sso-openid-connect'],
        scopes_supported: ['launch', 'openid', 'fhirUser', 'patient/Patient.rs'],
      });
    }
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/token') {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => token(new URLSearchParams(raw), res));
      return;
    }
    const patientPath = /^\/fhir\/Patient\/([A-Za-z0-9.-]{1,64})$/.exec(url.pathname);
    if (req.method === 'GET' && patientPath) return readPatient(patientPath[1]!, req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    iss: fhirBase(),
    launchFor: (launch, patientId) => launches.set(launch, patientId),
    events,
    issuedTokens,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
