/**
 * The access matrix: every API route × every kind of caller → the status the server must answer.
 * It runs against the real server and fails on any difference, when the server has a route this
 * table does not list (read from the server itself), and when a route that touches patient data
 * answers an authenticated caller without writing an audit record for that request.
 */
import { randomBytes } from 'node:crypto';
import type { Bundle } from '@medplum/fhirtypes';
import {
  ALERT_ORGANIZATION_SETTING_KEYS,
  ALERT_THRESHOLD_KEYS,
  DEFAULT_INGEST_AUTH_HEADER,
  ORGANIZATION_ONLY_THRESHOLDS,
  type IngestionSourceWithSecret,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type ApiClient,
  type TestServer,
} from './support/http.ts';
import {
  buildAlert,
  buildDevice,
  buildPatient,
  buildReading,
  disableUser,
  expireSmartTokens,
  expireSource,
  idleSessions,
} from './support/factories.ts';
import { smartClient, smartToken } from './support/smart.ts';

const PRINCIPALS = ['none', 'providerA', 'providerB', 'admin', 'disabled', 'idle'] as const;
type Principal = (typeof PRINCIPALS)[number];
type Expected = Record<Principal, number>;

interface Fixtures {
  orgA: number;
  patientA: number;
  targetUser: number;
  alertA: number;
}

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route as the server registers it. */
  route: string;
  path: (f: Fixtures) => string;
  body?: (f: Fixtures, p: Principal) => unknown;
  /** Headers the route needs to get past its own checks (a bulk export's Prefer: respond-async). */
  headers?: Record<string, string>;
  expect: Expected;
  /** Reads or writes patient data: each authenticated call must leave an audit record. */
  patientData?: boolean;
}

const NO_SOURCE = '00000000-0000-4000-8000-000000000000';
/** A patient's thresholds all left to the defaults (a patient has no organization-only key). */
const NO_THRESHOLDS = Object.fromEntries(
  ALERT_THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k)).map((k) => [k, null]),
);
/** An organization's settings all left to the defaults, without escalation contacts. */
const NO_SETTINGS = {
  ...Object.fromEntries([...ALERT_THRESHOLD_KEYS, ...ALERT_ORGANIZATION_SETTING_KEYS].map((k) => [k, null])),
  escalation_contact_ids: [],
};
const unique = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;
/** Signed-in routes: 401 for no, disabled or idle-expired sessions. */
const signedIn = (ok: number, o: Partial<Expected> = {}): Expected => ({
  none: 401,
  disabled: 401,
  idle: 401,
  providerA: ok,
  providerB: ok,
  admin: ok,
  ...o,
});
const adminOnly = (ok: number) => signedIn(ok, { providerA: 403, providerB: 403 });
const everyone = (status: number): Expected => signedIn(status, { none: status, disabled: status, idle: status });
/** Patient A belongs to organization A: provider B must not learn that it exists. */
const patientOfA = (ok: number) => signedIn(ok, { providerB: 404 });

const patientBody = (f: Fixtures) => ({
  first_name: 'Matrix',
  middle_name: null,
  last_name: 'Patient',
  date_of_birth: null,
  organization_id: f.orgA,
  primary_provider_id: null,
  gender: 'female',
  enrolled_rpm: false,
  enrollment_status: null,
  insurances: [{ type: 'Medicare', provider_name: 'CMS', policy_number: 'M-1' }],
});

const TABLE: Row[] = [
  { method: 'GET', route: '/api/health', path: () => '/api/health', expect: everyone(200) },
  { method: 'GET', route: '/api/health/live', path: () => '/api/health/live', expect: everyone(200) },
  { method: 'GET', route: '/api/health/ready', path: () => '/api/health/ready', expect: everyone(200) },
  { method: 'GET', route: '/api/docs/json', path: () => '/api/docs/json', expect: everyone(200) },
  {
    method: 'POST',
    route: '/api/token',
    path: () => '/api/token',
    body: () => ({ token: 'x'.repeat(40) }),
    expect: everyone(401),
  },
  { method: 'GET', route: '/api/me', path: () => '/api/me', expect: signedIn(200) },
  {
    method: 'POST',
    route: '/api/me/mfa',
    path: () => '/api/me/mfa',
    body: () => ({ enabled: false }),
    expect: signedIn(200),
  },
  { method: 'GET', route: '/api/roles', path: () => '/api/roles', expect: adminOnly(200) },
  { method: 'GET', route: '/api/organizations', path: () => '/api/organizations', expect: signedIn(200) },
  {
    method: 'POST',
    route: '/api/organizations',
    path: () => '/api/organizations',
    body: () => ({ name: unique('Matrix Org') }),
    expect: adminOnly(201),
  },
  {
    method: 'GET',
    route: '/api/organizations/:id/providers',
    path: (f) => `/api/organizations/${f.orgA}/providers`,
    expect: signedIn(200, { providerB: 404 }),
  },
  {
    method: 'GET',
    route: '/api/organizations/:id/settings',
    path: (f) => `/api/organizations/${f.orgA}/settings`,
    expect: adminOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/organizations/:id/settings',
    path: (f) => `/api/organizations/${f.orgA}/settings`,
    body: () => ({ require_mfa: false }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/organizations/:id/ehr-launch',
    path: (f) => `/api/organizations/${f.orgA}/ehr-launch`,
    expect: adminOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/organizations/:id/ehr-launch',
    path: (f) => `/api/organizations/${f.orgA}/ehr-launch`,
    body: () => ({ iss: null, client_id: null, patient_identifier_system: null }),
    expect: adminOnly(200),
  },
  {
    // No launch cookie here: every signed-in caller learns the launch has expired (audited).
    method: 'POST',
    route: '/api/ehr-launch/resolve',
    path: () => '/api/ehr-launch/resolve',
    body: () => ({ launch: 'a'.repeat(43) }),
    expect: signedIn(410),
    patientData: true,
  },
  { method: 'GET', route: '/api/devices', path: () => '/api/devices', expect: signedIn(200) },
  {
    method: 'GET',
    route: '/api/organizations/:id/display-units',
    path: (f) => `/api/organizations/${f.orgA}/display-units`,
    expect: signedIn(200, { providerB: 404 }),
  },
  {
    method: 'PUT',
    route: '/api/organizations/:id/display-units',
    path: (f) => `/api/organizations/${f.orgA}/display-units`,
    body: () => ({ display_units: { weight: '[lb_av]' } }),
    expect: adminOnly(200),
  },
  { method: 'GET', route: '/api/programs', path: () => '/api/programs', expect: signedIn(200) },
  {
    method: 'POST',
    route: '/api/programs',
    path: () => '/api/programs',
    body: () => ({ id: `matrix_${randomBytes(3).toString('hex')}`, label: 'Matrix program', kinds: ['weight'] }),
    expect: adminOnly(201),
  },
  { method: 'GET', route: '/api/integrations', path: () => '/api/integrations', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/api/integrations',
    path: () => '/api/integrations',
    body: (f) => ({ name: unique('Matrix source'), kind: 'tenovi', organization_id: f.orgA }),
    expect: adminOnly(201),
  },
  {
    method: 'PUT',
    route: '/api/integrations/:id/organization',
    path: () => `/api/integrations/${NO_SOURCE}/organization`,
    body: (f) => ({ organization_id: f.orgA }),
    expect: adminOnly(404),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/rotate',
    path: () => `/api/integrations/${NO_SOURCE}/rotate`,
    expect: adminOnly(404),
  },
  {
    method: 'DELETE',
    route: '/api/integrations/:id',
    path: () => `/api/integrations/${NO_SOURCE}`,
    expect: adminOnly(404),
  },
  { method: 'GET', route: '/api/smart-clients', path: () => '/api/smart-clients', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/api/smart-clients',
    path: () => '/api/smart-clients',
    // A JWKS URL is not fetched at registration: a made-up https one registers.
    body: (f) => ({
      name: unique('Matrix SMART client'),
      organization_id: f.orgA,
      jwks_url: 'https://ehr.example/.well-known/jwks.json',
      scopes: ['system/Patient.rs'],
    }),
    expect: adminOnly(201),
  },
  {
    method: 'POST',
    route: '/api/smart-clients/:id/revoke',
    path: () => `/api/smart-clients/${NO_SOURCE}/revoke`,
    expect: adminOnly(404),
  },
  { method: 'GET', route: '/api/unmatched-readings', path: () => '/api/unmatched-readings', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/api/unmatched-readings/attach',
    path: () => '/api/unmatched-readings/attach',
    // No such reading: an admin is answered the conflict, everyone else never gets that far.
    body: (f) => ({ reading_ids: [999_999_999], patient_id: f.patientA }),
    expect: adminOnly(409),
  },
  { method: 'GET', route: '/fhir/R4/metadata', path: () => '/fhir/R4/metadata', expect: everyone(200) },
  {
    method: 'GET',
    route: '/fhir/R4/.well-known/smart-configuration',
    path: () => '/fhir/R4/.well-known/smart-configuration',
    expect: everyone(200),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Patient/:id',
    path: (f) => `/fhir/R4/Patient/${f.patientA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/fhir/R4/Observation/:id',
    path: () => '/fhir/R4/Observation/999999',
    expect: signedIn(404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Observation',
    path: (f) => `/fhir/R4/Observation?patient=${f.patientA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  { method: 'GET', route: '/fhir/R4/Device', path: () => '/fhir/R4/Device?identifier=NONE-1', expect: signedIn(200) },
  // A search answers 200 with what the caller may see (provider B: an empty Bundle).
  {
    method: 'GET',
    route: '/fhir/R4/Patient',
    path: (f) => `/fhir/R4/Patient?_id=${f.patientA}`,
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/fhir/R4/DiagnosticReport/:id',
    path: (f) => `/fhir/R4/DiagnosticReport/${f.patientA}-2026-10`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/fhir/R4/DiagnosticReport',
    path: (f) => `/fhir/R4/DiagnosticReport?patient=${f.patientA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  // Bulk Data export: providers export their own organization's groups, administrators any group
  // (but not Patient/$export, which for them would be every organization).
  {
    method: 'GET',
    route: '/fhir/R4/Group/:id/$export',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}/$export?_type=Patient`,
    headers: { prefer: 'respond-async' },
    expect: signedIn(202, { providerB: 404 }),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/fhir/R4/Patient/$export',
    path: () => '/fhir/R4/Patient/$export?_type=Patient',
    headers: { prefer: 'respond-async' },
    expect: signedIn(202, { admin: 403 }),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/fhir/R4/Group/:id/$export',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}/$export`,
    body: () => ({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Patient' }] }),
    headers: { prefer: 'respond-async' },
    expect: signedIn(202, { providerB: 404 }),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/fhir/R4/Patient/$export',
    path: () => '/fhir/R4/Patient/$export',
    body: () => ({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Patient' }] }),
    headers: { prefer: 'respond-async' },
    expect: signedIn(202, { admin: 403 }),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/fhir/R4/bulk-status/:exportId',
    path: () => `/fhir/R4/bulk-status/${NO_SOURCE}`,
    expect: signedIn(404),
  },
  {
    method: 'DELETE',
    route: '/fhir/R4/bulk-status/:exportId',
    path: () => `/fhir/R4/bulk-status/${NO_SOURCE}`,
    expect: signedIn(404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/bulk-files/:exportId/:fileName',
    path: () => `/fhir/R4/bulk-files/${NO_SOURCE}/Patient-1.ndjson`,
    expect: signedIn(404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Group/:id',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  { method: 'GET', route: '/fhir/R4/Group', path: () => '/fhir/R4/Group', expect: signedIn(200) },
  // FHIR writes take a FHIR source's Bearer secret or a SMART access token; a session is never enough.
  { method: 'POST', route: '/fhir/R4/Observation', path: () => '/fhir/R4/Observation', expect: everyone(401) },
  { method: 'POST', route: '/fhir/R4', path: () => '/fhir/R4', expect: everyone(401) },
  // Device clouds authenticate with the source's secret; a portal session is never enough.
  {
    method: 'POST',
    route: '/api/ingest/tenovi/:sourceId',
    path: () => `/api/ingest/tenovi/${NO_SOURCE}`,
    body: () => [],
    expect: everyone(401),
  },
  {
    method: 'POST',
    route: '/api/devices',
    path: () => '/api/devices',
    body: () => ({ device_id: unique('CUFF'), model: 'BP-1', type: 'blood pressure cuff' }),
    expect: adminOnly(201),
  },
  { method: 'GET', route: '/api/patients', path: () => '/api/patients', expect: signedIn(200), patientData: true },
  {
    method: 'POST',
    route: '/api/patients',
    path: () => '/api/patients',
    body: (f) => patientBody(f),
    expect: signedIn(201, { providerB: 403 }),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id',
    path: (f) => `/api/patients/${f.patientA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'PUT',
    route: '/api/patients/:id',
    path: (f) => `/api/patients/${f.patientA}`,
    body: (f) => patientBody(f),
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/insurance',
    path: (f) => `/api/patients/${f.patientA}/insurance`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/vitals',
    path: (f) => `/api/patients/${f.patientA}/vitals?limit=10&offset=0`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/patients/:id/vitals',
    path: (f) => `/api/patients/${f.patientA}/vitals`,
    body: () => ({ measured_at: '2026-01-05T10:00:00Z', systolic: 120, diastolic: 80, pulse: 70 }),
    expect: patientOfA(201),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/vitals/series',
    path: (f) => `/api/patients/${f.patientA}/vitals/series`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/observations',
    path: (f) => `/api/patients/${f.patientA}/observations?kind=weight`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/observations/summary',
    path: (f) => `/api/patients/${f.patientA}/observations/summary`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/patients/:id/observations',
    path: (f) => `/api/patients/${f.patientA}/observations`,
    body: () => ({ kind: 'weight', created_at: '2026-01-05T10:00:00Z', components: { weight: 80 } }),
    expect: patientOfA(201),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/programs',
    path: (f) => `/api/patients/${f.patientA}/programs`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'PUT',
    route: '/api/patients/:id/programs',
    path: (f) => `/api/patients/${f.patientA}/programs`,
    body: () => ({ programs: ['hypertension'] }),
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/notes',
    path: (f) => `/api/patients/${f.patientA}/notes`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/patients/:id/notes',
    path: (f) => `/api/patients/${f.patientA}/notes`,
    body: () => ({ content: 'Matrix note' }),
    expect: patientOfA(201),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/outreach',
    path: (f) => `/api/patients/${f.patientA}/outreach`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/patients/:id/outreach',
    path: (f) => `/api/patients/${f.patientA}/outreach`,
    body: () => ({ outcome: 'called', notes: 'Matrix outreach' }),
    expect: patientOfA(201),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/sessions',
    path: (f) => `/api/patients/${f.patientA}/sessions`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/patients/:id/sessions',
    path: (f) => `/api/patients/${f.patientA}/sessions`,
    body: () => ({ date: '2026-11-20', duration_minutes: 12, notes: 'Matrix call' }),
    expect: patientOfA(201),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/billing',
    path: () => '/api/billing?month=2026-10',
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/billing/export.csv',
    path: () => '/api/billing/export.csv?month=2026-10',
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/summary',
    path: (f) => `/api/patients/${f.patientA}/summary?month=2026-10`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/summary.pdf',
    path: (f) => `/api/patients/${f.patientA}/summary.pdf?month=2026-10`,
    expect: patientOfA(200),
    patientData: true,
  },
  // A provider's own patients; naming another provider is refused (the policy's own test).
  {
    method: 'GET',
    route: '/api/summaries.zip',
    path: () => '/api/summaries.zip?month=2026-10',
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/billing/:month/close',
    path: () => '/api/billing/2020-01/close',
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/billing/worklist',
    path: () => '/api/billing/worklist?month=2026-10',
    expect: signedIn(200),
    patientData: true,
  },
  // A month never closed: the admin gets the conflict, no one else gets that far.
  {
    method: 'POST',
    route: '/api/billing/:month/reopen',
    path: () => '/api/billing/2019-01/reopen',
    body: () => ({ reason: 'Matrix' }),
    expect: adminOnly(409),
  },
  {
    method: 'POST',
    route: '/api/billing/:month/claims-sent',
    path: () => '/api/billing/2019-01/claims-sent',
    expect: adminOnly(409),
  },
  {
    method: 'GET',
    route: '/api/patients/:id/billing',
    path: (f) => `/api/patients/${f.patientA}/billing?month=2026-10`,
    expect: patientOfA(200),
    patientData: true,
  },
  { method: 'GET', route: '/api/admin/users', path: () => '/api/admin/users', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/api/admin/users',
    path: () => '/api/admin/users',
    body: (f, p) => ({
      email: `${unique(p)}@example.com`,
      first_name: 'Matrix',
      last_name: 'User',
      role: 'provider',
      organization_id: f.orgA,
    }),
    expect: adminOnly(201),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/resend-invite',
    path: (f) => `/api/admin/users/${f.targetUser}/resend-invite`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/disable',
    path: (f) => `/api/admin/users/${f.targetUser}/disable`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/enable',
    path: (f) => `/api/admin/users/${f.targetUser}/enable`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/reset-mfa',
    path: (f) => `/api/admin/users/${f.targetUser}/reset-mfa`,
    expect: adminOnly(200),
  },
  { method: 'GET', route: '/api/audit-logs', path: () => '/api/audit-logs?limit=10&offset=0', expect: adminOnly(200) },
  { method: 'GET', route: '/api/db/tables', path: () => '/api/db/tables', expect: adminOnly(200) },
  { method: 'GET', route: '/api/db/schema/:table', path: () => '/api/db/schema/patients', expect: adminOnly(200) },
  { method: 'GET', route: '/api/db/sample/:table', path: () => '/api/db/sample/patients', expect: adminOnly(200) },
  {
    method: 'GET',
    route: '/api/alerts',
    path: () => '/api/alerts?status=open',
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/alerts',
    path: (f) => `/api/alerts?patient_id=${f.patientA}`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/alerts/worklist',
    path: () => '/api/alerts/worklist',
    // Every signed-in user, limited by the alert list policy to their organization (admins: all).
    expect: signedIn(200),
    patientData: true,
  },
  { method: 'GET', route: '/api/alerts/summary', path: () => '/api/alerts/summary', expect: signedIn(200) },
  {
    method: 'GET',
    route: '/api/alerts/stream',
    path: () => '/api/alerts/stream?max_seconds=0',
    expect: signedIn(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/alerts/:id/acknowledge',
    path: (f) => `/api/alerts/${f.alertA}/acknowledge`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'POST',
    route: '/api/alerts/:id/resolve',
    path: (f) => `/api/alerts/${f.alertA}/resolve`,
    body: () => ({ reason: 'no_action_needed', note: 'Matrix resolution' }),
    // The first caller resolves it; the alert is then already resolved.
    expect: signedIn(200, { providerB: 404, admin: 409 }),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/thresholds',
    path: (f) => `/api/patients/${f.patientA}/thresholds`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'PUT',
    route: '/api/patients/:id/thresholds',
    path: (f) => `/api/patients/${f.patientA}/thresholds`,
    body: () => ({ ...NO_THRESHOLDS, stage2_systolic: 140 }),
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/patients/:id/alert-marks',
    path: (f) => `/api/patients/${f.patientA}/alert-marks`,
    expect: patientOfA(200),
    patientData: true,
  },
  {
    method: 'GET',
    route: '/api/organizations/:id/alert-settings',
    path: (f) => `/api/organizations/${f.orgA}/alert-settings`,
    expect: signedIn(200, { providerB: 404 }),
  },
  {
    method: 'PUT',
    route: '/api/organizations/:id/alert-settings',
    path: (f) => `/api/organizations/${f.orgA}/alert-settings`,
    body: () => ({ ...NO_SETTINGS, stale_days: 4 }),
    expect: adminOnly(200),
  },
  // Last: it ends each caller's session.
  { method: 'POST', route: '/api/logout', path: () => '/api/logout', expect: everyone(204) },
];

let server: TestServer;
let fixtures: Fixtures;
const clients = {} as Record<Principal, ApiClient>;

beforeAll(async () => {
  server = await startTestServer();
  const orgA = await createOrganization(server, 'Matrix Org A');
  const orgB = await createOrganization(server, 'Matrix Org B');
  const staff = {
    providerA: await createStaff(server, { role: 'provider', organizationId: orgA.id }),
    providerB: await createStaff(server, { role: 'provider', organizationId: orgB.id }),
    admin: await createStaff(server, { role: 'admin', organizationId: orgA.id }),
    disabled: await createStaff(server, { role: 'admin', organizationId: orgA.id }),
    idle: await createStaff(server, { role: 'admin', organizationId: orgA.id }),
  };
  clients.none = apiClient(server);
  for (const p of ['providerA', 'providerB', 'admin', 'disabled', 'idle'] as const)
    clients[p] = await signIn(server, staff[p]);
  await disableUser(server.db.pool, staff.disabled.id);
  await idleSessions(server.db.pool, { userId: staff.idle.id }, '16 minutes');

  const patientA = await buildPatient(server.db.pool, {
    firstName: 'Alice',
    lastName: 'Able',
    organizationId: orgA.id,
  });
  const target = await clients.admin.post<{ user: { id: number } }>('/api/admin/users', {
    email: `${unique('target')}@example.com`,
    first_name: 'Target',
    last_name: 'User',
    role: 'provider',
    organization_id: orgA.id,
  });
  expect(target.status).toBe(201);
  const alertA = await buildAlert(server.db.pool, {
    patientId: patientA,
    organizationId: orgA.id,
    rule: 'bp_stage2',
    severity: 'warning',
    severityRank: 1,
    values: { systolic: 150, diastolic: 95 },
  });
  fixtures = {
    orgA: orgA.id,
    patientA,
    targetUser: target.body.user.id,
    alertA,
  };
});
afterAll(async () => server?.close());

describe('access matrix', () => {
  it('lists every API route the server has, and no route it lacks', () => {
    const served = new Set(server.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    const listed = new Set(TABLE.map((r) => `${r.method} ${r.route}`));
    expect([...served].filter((r) => !listed.has(r)).sort()).toEqual([]);
    expect([...listed].filter((r) => !served.has(r)).sort()).toEqual([]);
  });

  it('answers every route × caller as the table says, auditing every touch of patient data', async () => {
    const differences: string[] = [];
    const unaudited: string[] = [];
    let checked = 0;
    for (const row of TABLE) {
      for (const principal of PRINCIPALS) {
        const res = await clients[principal].request(row.method, row.path(fixtures), {
          body: row.body ? row.body(fixtures, principal) : row.method === 'GET' ? undefined : {},
          ...(row.headers ? { headers: row.headers } : {}),
        });
        checked++;
        if (res.status !== row.expect[principal]) {
          differences.push(
            `${row.method} ${row.route} as ${principal}: expected ${row.expect[principal]}, got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
        }
        const authenticated = principal === 'providerA' || principal === 'providerB' || principal === 'admin';
        if (row.patientData && authenticated) {
          const { rowCount } = await server.db.pool.query(`SELECT 1 FROM audit_logs WHERE request_id = $1`, [
            res.headers['x-request-id'],
          ]);
          if (!rowCount) unaudited.push(`${row.method} ${row.route} as ${principal} (${res.status})`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(unaudited).toEqual([]);
    expect(checked).toBe(TABLE.length * PRINCIPALS.length);
    console.log(`access matrix: ${TABLE.length} routes × ${PRINCIPALS.length} principals = ${checked} checks`);
  });
});

/**
 * The machine doors: every route a device cloud or an EHR calls, tried with a key of the
 * patient's organization, of another organization, an expired one and a revoked one. Each call
 * must answer as listed and leave an audit record naming the source. FHIR reads take a SMART
 * Backend Services access token (`read`: a client's token; static read keys are retired).
 */
const MACHINE_CALLERS = ['sameOrg', 'otherOrg', 'expired', 'revoked'] as const;
type MachineCaller = (typeof MACHINE_CALLERS)[number];
type KeyKind = 'tenovi' | 'write' | 'read';
/** What a caller presents: a source's id and secret, or a SMART client's id and access token. */
interface MachineKey {
  id: string;
  secret: string;
}

interface MachineFixtures {
  orgA: number;
  patientA: number;
  vitalA: number;
}

interface MachineRow {
  method: 'GET' | 'POST' | 'DELETE';
  route: string;
  key: KeyKind;
  path: (f: MachineFixtures, source: MachineKey) => string;
  /** `n` makes each call's measurement a new one (its own time). */
  body?: (n: number) => unknown;
  headers?: Record<string, string>;
  expect: Record<MachineCaller, number>;
  /** A batch answers 200 and says per entry what happened to it. */
  entryStatus?: Partial<Record<MachineCaller, string>>;
}

const MACHINE_DEVICE = 'MATRIX-CUFF-1';
const at = (n: number) => new Date(Date.now() - (60 + n) * 60_000).toISOString();
const observation = (n: number) => ({
  resourceType: 'Observation',
  status: 'final',
  category: [
    { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
  effectiveDateTime: at(n),
  device: { identifier: { value: MACHINE_DEVICE } },
  component: [
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      valueQuantity: { value: 128, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
      valueQuantity: { value: 82, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
  ],
});
/** Live keys answer; expired and revoked keys are refused at the door. */
const keyed = (same: number, other: number): Record<MachineCaller, number> => ({
  sameOrg: same,
  otherOrg: other,
  expired: 401,
  revoked: 401,
});

const MACHINE_TABLE: MachineRow[] = [
  {
    method: 'POST',
    route: '/api/ingest/tenovi/:sourceId',
    key: 'tenovi',
    path: (_f, s) => `/api/ingest/tenovi/${s.id}`,
    body: (n) => [
      {
        metric: 'blood_pressure',
        hwi_device_id: MACHINE_DEVICE,
        value_1: 126,
        value_2: 81,
        timestamp: at(n),
        filter_params: { measurement_index: n },
      },
    ],
    // Another organization's cloud is answered like any sender (the reading is kept off A's
    // patient by the storing statement); its audit record names its own organization.
    expect: keyed(200, 200),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Patient/:id',
    key: 'read',
    path: (f) => `/fhir/R4/Patient/${f.patientA}`,
    expect: keyed(200, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Observation/:id',
    key: 'read',
    path: (f) => `/fhir/R4/Observation/${f.vitalA}`,
    expect: keyed(200, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Observation',
    key: 'read',
    path: (f) => `/fhir/R4/Observation?patient=${f.patientA}`,
    expect: keyed(200, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/DiagnosticReport/:id',
    key: 'read',
    path: (f) => `/fhir/R4/DiagnosticReport/${f.patientA}-2026-10`,
    expect: keyed(200, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/DiagnosticReport',
    key: 'read',
    path: (f) => `/fhir/R4/DiagnosticReport?patient=${f.patientA}`,
    expect: keyed(200, 404),
  },
  // A search answers 200 with what the key may see: nothing of another organization.
  {
    method: 'GET',
    route: '/fhir/R4/Patient',
    key: 'read',
    path: (f) => `/fhir/R4/Patient?_id=${f.patientA}`,
    expect: keyed(200, 200),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Device',
    key: 'read',
    path: () => `/fhir/R4/Device?identifier=${MACHINE_DEVICE}`,
    expect: keyed(200, 200),
  },
  // A bulk export of the key's organization's program is accepted; another's is not found.
  {
    method: 'GET',
    route: '/fhir/R4/Group/:id/$export',
    key: 'read',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}/$export?_type=Patient`,
    headers: { prefer: 'respond-async' },
    expect: keyed(202, 404),
  },
  // Patient/$export is the key's own organization's patients, whichever it is.
  {
    method: 'GET',
    route: '/fhir/R4/Patient/$export',
    key: 'read',
    path: () => '/fhir/R4/Patient/$export?_type=Patient',
    headers: { prefer: 'respond-async' },
    expect: keyed(202, 202),
  },
  {
    method: 'POST',
    route: '/fhir/R4/Group/:id/$export',
    key: 'read',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}/$export`,
    body: () => ({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Patient' }] }),
    headers: { prefer: 'respond-async' },
    expect: keyed(202, 404),
  },
  {
    method: 'POST',
    route: '/fhir/R4/Patient/$export',
    key: 'read',
    path: () => '/fhir/R4/Patient/$export',
    body: () => ({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Patient' }] }),
    headers: { prefer: 'respond-async' },
    expect: keyed(202, 202),
  },
  {
    method: 'GET',
    route: '/fhir/R4/bulk-status/:exportId',
    key: 'read',
    path: () => `/fhir/R4/bulk-status/${NO_SOURCE}`,
    expect: keyed(404, 404),
  },
  {
    method: 'DELETE',
    route: '/fhir/R4/bulk-status/:exportId',
    key: 'read',
    path: () => `/fhir/R4/bulk-status/${NO_SOURCE}`,
    expect: keyed(404, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/bulk-files/:exportId/:fileName',
    key: 'read',
    path: () => `/fhir/R4/bulk-files/${NO_SOURCE}/Patient-1.ndjson`,
    expect: keyed(404, 404),
  },
  {
    method: 'GET',
    route: '/fhir/R4/Group/:id',
    key: 'read',
    path: (f) => `/fhir/R4/Group/org-${f.orgA}`,
    expect: keyed(200, 404),
  },
  { method: 'GET', route: '/fhir/R4/Group', key: 'read', path: () => '/fhir/R4/Group', expect: keyed(200, 200) },
  {
    method: 'POST',
    route: '/fhir/R4/Observation',
    key: 'write',
    path: () => '/fhir/R4/Observation',
    body: observation,
    expect: keyed(201, 403),
  },
  {
    method: 'POST',
    route: '/fhir/R4',
    key: 'write',
    path: () => '/fhir/R4',
    body: (n) => ({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [{ resource: observation(n), request: { method: 'POST', url: 'Observation' } }],
    }),
    expect: keyed(200, 200),
    entryStatus: { sameOrg: '201 Created', otherOrg: '403 Forbidden' },
  },
];

describe('access matrix of the machine doors', () => {
  const keys = {} as Record<KeyKind, Record<MachineCaller, MachineKey>>;
  let machine: MachineFixtures;

  beforeAll(async () => {
    const orgB = (
      await server.db.pool.query<{ id: number }>(`SELECT id FROM organizations WHERE name = 'Matrix Org B'`)
    ).rows[0]!.id;
    const admin = await signIn(server, await createStaff(server, { role: 'admin', organizationId: fixtures.orgA }));
    await buildDevice(server.db.pool, {
      deviceId: MACHINE_DEVICE,
      model: 'BPM',
      patientId: fixtures.patientA,
      assignedFrom: { ago: '30 days' },
    });
    const vitalA = await buildReading(server.db.pool, fixtures.patientA, {
      at: { ago: '2 days' },
      systolic: 120,
      diastolic: 80,
      pulse: 70,
    });
    machine = { orgA: fixtures.orgA, patientA: fixtures.patientA, vitalA };
    const bodyOf = (kind: KeyKind, organizationId: number) =>
      kind === 'tenovi'
        ? { name: unique('Matrix cloud'), kind: 'tenovi', organization_id: organizationId }
        : { name: unique('Matrix EHR'), kind: 'fhir', organization_id: organizationId };
    const readers = {} as Record<MachineCaller, MachineKey>;
    for (const caller of MACHINE_CALLERS) {
      const client = await smartClient(server, admin, {
        organizationId: caller === 'otherOrg' ? orgB : fixtures.orgA,
        scopes: [
          'system/Patient.rs',
          'system/Observation.rs',
          'system/Device.rs',
          'system/DiagnosticReport.rs',
          'system/Group.rs',
        ],
      });
      readers[caller] = { id: client.id, secret: await smartToken(server, client) };
    }
    await expireSmartTokens(server.db.ownerPool, readers.expired.id);
    expect((await admin.post(`/api/smart-clients/${readers.revoked.id}/revoke`)).status).toBe(200);
    keys.read = readers;
    for (const kind of ['tenovi', 'write'] as const) {
      const made = {} as Record<MachineCaller, IngestionSourceWithSecret>;
      for (const caller of MACHINE_CALLERS) {
        const res = await admin.post<IngestionSourceWithSecret>(
          '/api/integrations',
          bodyOf(kind, caller === 'otherOrg' ? orgB : fixtures.orgA),
        );
        expect(res.status).toBe(201);
        made[caller] = res.body;
      }
      await expireSource(server.db.ownerPool, made.expired.id);
      expect((await admin.request('DELETE', `/api/integrations/${made.revoked.id}`)).status).toBe(200);
      keys[kind] = made;
    }
  });

  it('tries every machine route with a key of the same organization, another, an expired and a revoked one', async () => {
    const machineRoutes = new Set(
      server.app.apiRoutes
        .filter((r) => r.url.startsWith('/fhir/') || r.url.startsWith('/api/ingest/'))
        .filter((r) => r.url !== '/fhir/R4/metadata' && r.url !== '/fhir/R4/.well-known/smart-configuration')
        .map((r) => `${r.method} ${r.url}`),
    );
    expect([...machineRoutes].sort()).toEqual([...new Set(MACHINE_TABLE.map((r) => `${r.method} ${r.route}`))].sort());

    const differences: string[] = [];
    const unaudited: string[] = [];
    let n = 0;
    for (const row of MACHINE_TABLE) {
      for (const caller of MACHINE_CALLERS) {
        const source = keys[row.key][caller];
        const headers: Record<string, string> =
          row.key === 'tenovi'
            ? { [DEFAULT_INGEST_AUTH_HEADER]: source.secret }
            : { authorization: `Bearer ${source.secret}`, accept: 'application/fhir+json', ...row.headers };
        const body = row.body?.(n++);
        if (body !== undefined)
          headers['content-type'] = row.key === 'tenovi' ? 'application/json' : 'application/fhir+json';
        const res = await server.app.inject({
          method: row.method,
          url: row.path(machine, source),
          headers,
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        const label = `${row.method} ${row.route} with a ${row.key} key (${caller})`;
        if (res.statusCode !== row.expect[caller]) {
          differences.push(`${label}: expected ${row.expect[caller]}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
        const entry = row.entryStatus?.[caller];
        if (entry !== undefined) {
          const got = (res.json() as Bundle).entry?.[0]?.response?.status;
          if (got !== entry) differences.push(`${label}: expected entry ${entry}, got ${got}`);
        }
        const { rowCount } = await server.db.pool.query(
          `SELECT 1 FROM audit_logs WHERE request_id = $1
              AND (resource_id = $2 OR details->>'source_id' = $2 OR details->>'smart_client_id' = $2)`,
          [res.headers['x-request-id'], source.id],
        );
        if (!rowCount) unaudited.push(`${label} (${res.statusCode})`);
      }
    }
    expect(differences).toEqual([]);
    expect(unaudited).toEqual([]);
    // The other organization's webhook call is recorded under its own organization.
    const tenoviOther = await server.db.pool.query(
      `SELECT details->>'organization_id' AS org FROM audit_logs
        WHERE action = 'ingest.tenovi' AND resource_id = $1 AND outcome = 'success'`,
      [keys.tenovi.otherOrg.id],
    );
    expect(tenoviOther.rows).toHaveLength(1);
    expect(tenoviOther.rows[0].org).not.toBe(String(fixtures.orgA));
  });
});
