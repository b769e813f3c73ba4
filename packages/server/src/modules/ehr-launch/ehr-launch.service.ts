import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  EHR_LAUNCH_SCOPE,
  EHR_LAUNCH_TTL_MINUTES,
  EhrLaunchErrors,
  EhrLaunchPaths,
  type EhrCallbackQuery,
  type EhrLaunchResolved,
  type EhrLaunchSettings,
  type UpdateEhrLaunchSettingsBody,
} from '@rpm/contracts';
import smart from 'fhirclient';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { AuditedRefusal, auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import type { RequestContext, SignedInContext } from '../../kernel/request-context.ts';
import { mayManageOrganizations } from '../../policies/organizations.ts';
import { requireOrganization } from '../organizations/index.ts';
import { patientIdByMrn } from '../patients/index.ts';
import {
  deleteLaunchState,
  findPendingAuthorization,
  findSettings,
  findSettingsByIss,
  insertLaunchState,
  isIssTakenByOther,
  pruneExpiredStates,
  saveSettings,
  storeResult,
  takeResult,
  type EhrIdentifier,
} from './ehr-launch.repository.ts';
import { presentSettings } from './ehr-launch.presenter.ts';
import { SmartStorage } from './smart-storage.ts';

/** fhirclient's storage key that names the current state key (its `SMART_KEY`). */
const SMART_KEY = 'SMART_KEY';

export interface LaunchDeps {
  db: pg.Pool;
  config: Config;
}

/** A launch step that went wrong: what the browser is shown, with its status. */
export class LaunchError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'LaunchError';
  }
}

/** The launch cookie's value is a bearer secret: only its hash is stored and looked up. */
export const hashOf = (value: string): string => createHash('sha256').update(value).digest('hex');
const randomId = (): string => randomBytes(32).toString('base64url');

/**
 * The request fhirclient reads its parameters from. Built from the validated values, not handed
 * the browser's request: fhirclient lets URL parameters (`clientId`, `patientId`,
 * `fhirServiceUrl`) override the configured ones, which must not be in the caller's hands.
 */
function smartRequest(config: Config, path: string, params: Record<string, string | undefined>): IncomingMessage {
  const base = new URL(config.publicUrl);
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return {
    url: `${url.pathname}${url.search}`,
    headers: { host: base.host, 'x-forwarded-proto': base.protocol.replace(':', '') },
    socket: {},
  } as unknown as IncomingMessage;
}

/** Both steps ask fhirclient for the redirect URL or the client, never to write a response itself. */
const NO_RESPONSE = {
  writeHead() {
    throw new Error('the SMART client must not answer the request itself');
  },
} as unknown as ServerResponse;

const launchFailure = (ctx: RequestContext, db: pg.Pool, reason: string, details: Record<string, unknown> | null = null) =>
  audit(db, ctx, { action: 'launch.resolve', outcome: 'failure', resourceType: 'ehr_launch', reason, details });

/**
 * GET /ehr/launch: the EHR opens the portal with its `iss` and a `launch` context. Only an `iss`
 * an admin configured is ever contacted. Answers the EHR authorization URL to redirect to and the
 * cookie value that binds the launch to this browser.
 */
export async function startLaunch(
  deps: LaunchDeps,
  ctx: RequestContext,
  query: { iss: string; launch: string },
): Promise<{ redirectTo: string; cookie: string }> {
  const settings = await findSettingsByIss(deps.db, query.iss);
  if (!settings) {
    await launchFailure(ctx, deps.db, 'unknown iss', { stage: 'launch', iss: query.iss });
    throw new LaunchError(400, EhrLaunchErrors.unknownIss);
  }
  await pruneExpiredStates(deps.db);
  if (!(await discoveryAnswers(settings.iss))) {
    await launchFailure(ctx, deps.db, 'EHR discovery document unreachable', { stage: 'launch', organization_id: settings.organization_id });
    throw new LaunchError(502, EhrLaunchErrors.launchFailed);
  }
  const storage = new SmartStorage();
  let redirectTo: string;
  try {
    const result = await smart(smartRequest(deps.config, EhrLaunchPaths.launch, {}), NO_RESPONSE, storage).authorize({
      clientId: settings.client_id,
      scope: EHR_LAUNCH_SCOPE,
      redirectUri: `${deps.config.publicUrl}${EhrLaunchPaths.callback}`,
      iss: settings.iss,
      launch: query.launch,
      pkceMode: 'required',
      noRedirect: true,
    });
    if (typeof result !== 'string') throw new Error('no authorization URL');
    redirectTo = result;
  } catch (err) {
    await launchFailure(ctx, deps.db, 'authorization request failed', {
      stage: 'launch',
      organization_id: settings.organization_id,
      error: errorText(err),
    });
    throw new LaunchError(502, EhrLaunchErrors.launchFailed);
  }
  const stateKey = await storage.get(SMART_KEY);
  if (typeof stateKey !== 'string') throw new LaunchError(502, EhrLaunchErrors.launchFailed);
  const cookie = randomId();
  await insertLaunchState(deps.db, {
    id: hashOf(cookie),
    organizationId: settings.organization_id,
    stateKey,
    data: storage.toJSON(),
    ttlMinutes: EHR_LAUNCH_TTL_MINUTES,
  });
  return { redirectTo, cookie };
}

/**
 * GET /ehr/callback: fhirclient exchanges the code (with the PKCE verifier, server to server),
 * the EHR's patient in context is read, and its identifiers are kept for the signed-in browser to
 * resolve. The EHR's tokens are dropped here: the portal needs nothing more from the EHR.
 * Answers the opaque id for the page's address.
 */
export async function completeLaunch(
  deps: LaunchDeps,
  ctx: RequestContext,
  cookie: string | undefined,
  query: EhrCallbackQuery,
): Promise<string> {
  const id = cookie ? hashOf(cookie) : undefined;
  const pending = id ? await findPendingAuthorization(deps.db, id) : undefined;
  if (!id || !pending) {
    await launchFailure(ctx, deps.db, 'no launch in progress for this browser', { stage: 'callback' });
    throw new LaunchError(400, EhrLaunchErrors.expired);
  }
  const fail = async (reason: string, details: Record<string, unknown> = {}) => {
    await deleteLaunchState(deps.db, id);
    await launchFailure(ctx, deps.db, reason, { stage: 'callback', organization_id: pending.organization_id, ...details });
    return new LaunchError(400, EhrLaunchErrors.launchFailed);
  };
  // The EHR refused (the user cancelled, or the client is not allowed): its error code, never more.
  if (query.error !== undefined) throw await fail('authorization refused by the EHR', { error: query.error.slice(0, 100) });
  if (query.state !== pending.state_key || query.code === undefined) throw await fail('state or code missing or not matching');

  let identifiers: EhrIdentifier[];
  try {
    const storage = new SmartStorage(pending.data);
    const request = smartRequest(deps.config, EhrLaunchPaths.callback, { state: query.state, code: query.code });
    const client = await smart(request, NO_RESPONSE, storage).ready();
    if (!client.patient.id) throw new Error('no patient in context');
    const patient = await client.patient.read();
    identifiers = identifiersOf(patient.identifier);
  } catch (err) {
    throw await fail('code exchange or patient read failed', { error: errorText(err) });
  }
  const resultId = randomId();
  await storeResult(deps.db, id, {
    resultId: hashOf(resultId),
    result: { iss: pending.iss, identifiers, created_at: new Date().toISOString() },
    ttlMinutes: EHR_LAUNCH_TTL_MINUTES,
  });
  await audit(deps.db, ctx, {
    action: 'launch.resolve',
    outcome: 'success',
    resourceType: 'ehr_launch',
    details: { stage: 'callback', organization_id: pending.organization_id, identifier_count: identifiers.length },
  });
  return resultId;
}

/**
 * POST /api/ehr-launch/resolve: the portal patient of a completed launch, for the signed-in user.
 * The launch is bound to the browser's cookie and used once. The EHR's identifier in the
 * organization's system is matched to the patient's MRN in that organization; the patient access
 * policy then decides, and a patient the user may not see is answered like no match at all.
 */
export async function resolveLaunch(
  db: pg.Pool,
  ctx: SignedInContext,
  cookie: string | undefined,
  launch: string,
): Promise<EhrLaunchResolved> {
  const action = 'launch.resolve';
  const target = { action, resourceType: 'ehr_launch' } as const;
  const taken = cookie ? await takeResult(db, hashOf(cookie), hashOf(launch)) : undefined;
  if (!taken || taken.expired) {
    const refused = failure(410, EhrLaunchErrors.expired, { ...target, reason: taken ? 'launch expired' : 'no launch for this browser and id' });
    await audit(db, ctx, refused.event);
    throw refused;
  }
  const organizationId = taken.organization_id;
  return auditedTransaction(db, ctx, async (tx) => {
    const settings = await findSettings(tx, organizationId);
    const system = settings?.patient_identifier_system ?? null;
    const mrn = system === null ? undefined : taken.result.identifiers.find((i) => i.system === system)?.value;
    const noMatch = (reason: string) =>
      failure(404, EhrLaunchErrors.noMatch, { ...target, reason, details: { organization_id: organizationId, iss: taken.result.iss } });
    if (mrn === undefined) throw noMatch(system === null ? 'no identifier system configured' : 'EHR patient has no identifier in the system');
    const patientId = await patientIdByMrn(tx, organizationId, mrn);
    if (patientId === undefined) throw noMatch('no patient with this MRN');
    try {
      await requirePatientAccess(tx, ctx, patientId, action);
    } catch (err) {
      // Refused the same way as no match, so a launch cannot tell which patients exist elsewhere.
      if (err instanceof AuditedRefusal && err.statusCode === 404) throw new AuditedRefusal(404, EhrLaunchErrors.noMatch, err.event);
      throw err;
    }
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { organization_id: organizationId, iss: taken.result.iss },
    });
    return { patient_id: patientId };
  });
}

/** GET /api/organizations/{id}/ehr-launch (admins). */
export async function getLaunchSettings(deps: LaunchDeps, ctx: SignedInContext, organizationId: number): Promise<EhrLaunchSettings> {
  const target = { action: 'launch.settings_read', resourceType: 'organization', resourceId: organizationId } as const;
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayManageOrganizations(ctx.actor), { ...target, reason: 'EHR launch settings are for admins' });
    await requireOrganization(tx, organizationId, target.action);
    const row = (await findSettings(tx, organizationId))!;
    await audit(tx, ctx, { ...target, outcome: 'success' });
    return presentSettings(row, deps.config.publicUrl);
  });
}

/** PUT /api/organizations/{id}/ehr-launch (admins): each change audited with its old and new value. */
export async function updateLaunchSettings(
  deps: LaunchDeps,
  ctx: SignedInContext,
  organizationId: number,
  body: UpdateEhrLaunchSettingsBody,
): Promise<EhrLaunchSettings> {
  const target = { action: 'launch.settings_update', resourceType: 'organization', resourceId: organizationId } as const;
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayManageOrganizations(ctx.actor), { ...target, reason: 'EHR launch settings are for admins' });
    await requireOrganization(tx, organizationId, target.action);
    const iss = blank(body.iss);
    const clientId = blank(body.client_id);
    const system = blank(body.patient_identifier_system);
    const refuse = (message: string, reason: string, status = 400) => failure(status, message, { ...target, reason });
    if (iss !== null) {
      const problem = issProblem(iss, allowsHttpLoopback(deps.config));
      if (problem) throw refuse(problem, 'invalid iss');
      if (clientId === null) throw refuse(EhrLaunchErrors.clientIdRequired, 'client id missing');
      if (await isIssTakenByOther(tx, iss, organizationId)) throw refuse(EhrLaunchErrors.issTaken, 'iss of another organization', 409);
    } else if (clientId !== null) {
      throw refuse(EhrLaunchErrors.issWithoutClientId, 'client id without iss');
    }
    if (system !== null && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(system)) throw refuse(EhrLaunchErrors.identifierSystemInvalid, 'invalid identifier system');
    const before = (await findSettings(tx, organizationId))!;
    await saveSettings(tx, organizationId, { iss, clientId, system, userId: ctx.actor.id });
    const after = (await findSettings(tx, organizationId))!;
    const details: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['iss', 'client_id', 'patient_identifier_system'] as const) {
      if (before[key] !== after[key]) details[key] = { from: before[key], to: after[key] };
    }
    await audit(tx, ctx, { ...target, outcome: 'success', details });
    return presentSettings(after, deps.config.publicUrl);
  });
}

const blank = (value: string | null): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * A portal served over plain http is a developer's or a test's: it may then launch from an EHR
 * on this machine over http. A portal served over https only ever talks to an https EHR.
 */
const allowsHttpLoopback = (config: Config): boolean => !config.publicUrl.startsWith('https://');

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What is wrong with an EHR's FHIR base URL, or null. */
export function issProblem(iss: string, httpLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(iss);
  } catch {
    return EhrLaunchErrors.issInvalid;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || iss.includes('?') || iss.includes('#')) {
    return EhrLaunchErrors.issInvalid;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && httpLoopback && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return EhrLaunchErrors.issNotHttps;
}

/** How long the portal waits for the EHR's discovery document. */
const DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * Whether the EHR's SMART discovery document answers, asked before fhirclient does: fhirclient
 * keeps the first answer for each EHR for the life of the process, a failed one included (and has
 * no timeout), so a single launch during an EHR outage would otherwise break every later launch
 * until a restart. Only a configured `iss` is ever asked.
 */
async function discoveryAnswers(iss: string): Promise<boolean> {
  try {
    const res = await fetch(`${iss.replace(/\/*$/, '/')}.well-known/smart-configuration`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The EHR patient's identifiers that have a value (a system may be missing in the EHR's data). */
function identifiersOf(raw: unknown): EhrIdentifier[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((i: unknown) => {
    if (typeof i !== 'object' || i === null) return [];
    const { system, value } = i as { system?: unknown; value?: unknown };
    if (typeof value !== 'string' || value === '') return [];
    return [{ system: typeof system === 'string' ? system : null, value }];
  });
}

/** An error's message for the audit record: short, and never a token or code (fhirclient's messages name URLs and statuses). */
function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/(code|access_token|code_verifier|state)=[^&\s]+/gi, '$1=[redacted]').slice(0, 200);
}
