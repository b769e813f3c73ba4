import { randomBytes, randomUUID } from 'node:crypto';
import type { IngestionSourceKind, Role } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../src/db/pool.ts';
import { kysely } from '../../src/db/kysely.ts';
import { actorOf, type Actor } from '../../src/policies/actor.ts';
import type { SignedInContext } from '../../src/kernel/request-context.ts';
import { insertDevice } from '../../src/modules/devices/devices.repository.ts';
import { insertSource } from '../../src/modules/ingestion/ingestion-sources.repository.ts';
import { hashSecret, newSourceSecret } from '../../src/modules/ingestion/source-secret.ts';
import { insertOrganization } from '../../src/modules/organizations/organizations.repository.ts';

/**
 * The one place tests make rows: organizations, staff, patients, devices (with their assignment),
 * readings, notes and tracking entries. Service tests and HTTP tests both use it; e2e makes the
 * same things through the portal's HTTP API (e2e/harness.ts).
 *
 * Rows are set-up, not the behaviour under test: they are written through the owning module's
 * repository where one fits, otherwise here, never in a test file. No factory goes through a
 * service, on purpose: a service writes audit records, and tests count those.
 *
 * Each factory fills what the test does not care about with unique values, so that tests name
 * only what they are about. Back-dating (`createdAt`, `assignedFrom`, a reading's `at`) is an
 * option of the factory, for tests of what happens to old data.
 */
export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A moment given as a Date, an ISO text, or an SQL interval back from now (`{ ago: '30 days' }`). */
export type Moment = Date | string | { ago: string };
const momentSql = (m: Moment) =>
  m instanceof Date || typeof m === 'string'
    ? sql<Date>`${m instanceof Date ? m.toISOString() : m}::timestamptz`
    : sql<Date>`now() - ${m.ago}::interval`;

export async function buildOrganization(
  db: Queryable,
  o: { name?: string; requireMfa?: boolean; timeZone?: string } = {},
) {
  const row = await insertOrganization(db, o.name ?? unique('Clinic'));
  if (!row) throw new Error(`an organization named ${o.name} exists already`);
  if (o.requireMfa !== undefined || o.timeZone !== undefined) {
    await kysely(db)
      .updateTable('organizations')
      .set({
        ...(o.requireMfa === undefined ? {} : { require_mfa: o.requireMfa }),
        ...(o.timeZone ? { time_zone: o.timeZone } : {}),
      })
      .where('id', '=', row.id)
      .execute();
  }
  return { id: row.id, name: row.name };
}

export interface StaffOptions {
  organizationId?: number | null;
  firstName?: string | null;
  lastName?: string | null;
  title?: string | null;
  email?: string;
  status?: 'active' | 'disabled';
  /** The user pool account's name; none by default (a portal-only user the pool is never asked about). */
  cognitoUsername?: string | null;
  cognitoSub?: string | null;
}

/** A staff member, returned as the actor a signed-in request of theirs would carry. */
export async function buildStaff(db: Queryable, role: Role, s: StaffOptions = {}): Promise<Actor> {
  const email = s.email ?? `${unique(role)}@example.com`;
  // Not users.repository's insertUser: staff here may have no organization, no name or be disabled.
  const row = await kysely(db)
    .insertInto('users')
    .values({
      email,
      role,
      organization_id: s.organizationId ?? null,
      first_name: s.firstName === undefined ? 'Sam' : s.firstName,
      last_name: s.lastName === undefined ? 'Staff' : s.lastName,
      title: s.title ?? null,
      status: s.status ?? 'active',
      cognito_username: s.cognitoUsername ?? null,
      cognito_sub: s.cognitoSub ?? null,
    })
    .returning(['id', 'email', 'organization_id', 'cognito_username'])
    .executeTakeFirstOrThrow();
  return actorOf({
    id: row.id,
    email: row.email,
    role,
    organizationId: row.organization_id,
    cognitoUsername: row.cognito_username,
  });
}

export interface PatientOptions {
  organizationId: number;
  firstName?: string;
  middleName?: string | null;
  lastName?: string;
  dateOfBirth?: string | null;
  gender?: string | null;
  primaryProviderId?: number | null;
  enrolledRpm?: boolean;
  enrollmentStatus?: string | null;
  /** Free text kept from before the status list (migration 0761); only old rows have it. */
  enrollmentStatusLegacy?: string | null;
  createdAt?: Moment;
  insurances?: InsuranceOptions[];
}

export async function buildPatient(db: Queryable, p: PatientOptions): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('patients')
    .values({
      organization_id: p.organizationId,
      first_name: p.firstName ?? 'Pat',
      middle_name: p.middleName ?? null,
      last_name: p.lastName ?? unique('Patient'),
      date_of_birth: p.dateOfBirth ?? null,
      gender: p.gender ?? null,
      primary_provider_id: p.primaryProviderId ?? null,
      ...(p.enrolledRpm === undefined ? {} : { enrolled_rpm: p.enrolledRpm }),
      enrollment_status: p.enrollmentStatus ?? null,
      enrollment_status_legacy: p.enrollmentStatusLegacy ?? null,
      ...(p.createdAt === undefined ? {} : { created_at: momentSql(p.createdAt) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (p.insurances) await buildInsurances(db, id, p.insurances);
  return id;
}

export type InsuranceOptions = { type: string; providerName?: string | null; policyNumber?: string | null };

export async function buildInsurances(db: Queryable, patientId: number, insurances: InsuranceOptions[]): Promise<void> {
  if (insurances.length === 0) return;
  await kysely(db)
    .insertInto('insurances')
    .values(
      insurances.map((i) => ({
        patient_id: patientId,
        type: i.type,
        provider_name: i.providerName ?? null,
        policy_number: i.policyNumber ?? null,
      })),
    )
    .execute();
}

export interface DeviceOptions {
  deviceId?: string;
  model?: string | null;
  type?: string | null;
  /** Assigns the device to this patient (the database opens the assignment, from now). */
  patientId?: number | null;
  /** When the assignment started, for readings measured before today. */
  assignedFrom?: Moment;
}

export async function buildDevice(db: Queryable, d: DeviceOptions = {}): Promise<number> {
  const deviceId = d.deviceId ?? unique('DEV');
  const row = await insertDevice(db, { deviceId, model: d.model ?? null, type: d.type ?? null });
  if (!row) throw new Error(`a device ${deviceId} exists already`);
  if (d.patientId != null) await assignDevice(db, row.id, d.patientId, d.assignedFrom);
  return row.id;
}

/** Gives the device to the patient, as saving a patient with it does; `from` back-dates it. */
export async function assignDevice(db: Queryable, deviceId: number, patientId: number, from?: Moment): Promise<void> {
  await kysely(db).updateTable('devices').set({ patient_id: patientId }).where('id', '=', deviceId).execute();
  if (from !== undefined) {
    await kysely(db)
      .updateTable('device_assignments')
      .set({ assigned_from: momentSql(from) })
      .where('device_id', '=', deviceId)
      .where('assigned_to', 'is', null)
      .execute();
  }
}

export interface ReadingOptions {
  /** When it was measured; now by default. */
  at?: Moment;
  /**
   * Another kind of the measurement registry with its components in the canonical unit (e.g.
   * weight `{ weight: 82.5 }`, unit 'kg'); without it, a blood pressure (or, with systolic null,
   * a heart rate) from the fields below.
   */
  kind?: string;
  components?: Record<string, number>;
  unit?: string;
  systolic?: number | null;
  diastolic?: number | null;
  pulse?: number | null;
  /** The device identifier it came from, or 'manual'; the table's default when not given. */
  source?: string;
}

/**
 * Stored readings of a patient, as ingestion leaves them (ingestion itself is what its own tests
 * are about): one row each, in the order given. Answers their ids.
 */
export async function buildReadings(db: Queryable, patientId: number, readings: ReadingOptions[]): Promise<number[]> {
  if (readings.length === 0) return [];
  const rows = await kysely(db)
    .insertInto('observations')
    .values(
      readings.map((r) => ({
        patient_id: patientId,
        ...storedValues(r),
        ...(r.at === undefined ? {} : { created_at: momentSql(r.at) }),
        ...(r.source === undefined ? {} : { source: r.source }),
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A reading's kind, components and unit as the observations store keeps them. */
function storedValues(r: Pick<ReadingOptions, 'kind' | 'components' | 'unit' | 'systolic' | 'diastolic' | 'pulse'>) {
  if (r.kind !== undefined && r.kind !== 'blood_pressure' && r.kind !== 'heart_rate') {
    return { kind: r.kind, components: JSON.stringify(r.components ?? {}), unit: r.unit ?? '1' };
  }
  const systolic = r.systolic === undefined ? 120 : r.systolic;
  const diastolic = r.diastolic === undefined ? 80 : r.diastolic;
  const pulse = r.pulse ?? null;
  const values: Record<string, number> = {};
  if (systolic !== null) values.systolic = systolic;
  if (diastolic !== null) values.diastolic = diastolic;
  if (pulse !== null) values.pulse = pulse;
  // A pulse alone is a heart rate, except a waiting one given kind blood_pressure on purpose.
  const kind = r.kind ?? (systolic === null ? 'heart_rate' : 'blood_pressure');
  return {
    kind,
    components: JSON.stringify(values),
    unit: kind === 'blood_pressure' && systolic !== null ? 'mm[Hg]' : '/min',
  };
}

export async function buildReading(db: Queryable, patientId: number, r: ReadingOptions = {}): Promise<number> {
  const [id] = await buildReadings(db, patientId, [r]);
  return id!;
}

/** A note; `authorId` null for one imported without an author. */
export async function buildNote(
  db: Queryable,
  n: { patientId: number; authorId?: number | null; content?: string },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('notes')
    .values({ patient_id: n.patientId, author_id: n.authorId ?? null, content: n.content ?? unique('Note') })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A tracking (time) entry; `userId` null for one whose author is gone. */
export async function buildTrackingEntry(
  db: Queryable,
  t: {
    patientId: number;
    date: string;
    durationMinutes: number;
    userId?: number | null;
    notes?: string | null;
    interactive?: boolean;
  },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('tracking_entries')
    .values({
      patient_id: t.patientId,
      user_id: t.userId ?? null,
      date: t.date,
      duration_minutes: t.durationMinutes,
      notes: t.notes ?? null,
      ...(t.interactive === undefined ? {} : { interactive: t.interactive }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** What a service receives for a request of `actor`; the request id finds its audit records. */
export function contextOf(actor: Actor): SignedInContext {
  return { actor, ip: '127.0.0.1', userAgent: 'service-test', requestId: randomUUID() };
}

/** A reading no patient's device accounts for, waiting on the unmatched list; `receivedAt` back-dates its arrival. */
export async function buildUnmatchedReading(
  db: Queryable,
  u: {
    deviceIdentifier: string;
    measuredAt?: Moment;
    /** Tells apart readings of one device at one instant (the device's own counter). */
    measurementIndex?: number;
    receivedAt?: Moment;
    systolic?: number | null;
    diastolic?: number | null;
    pulse?: number | null;
    /** A heart rate alone is 'heart_rate'; a pulse without its pressure waits as 'blood_pressure' (the default). */
    kind?: string;
    components?: Record<string, number>;
    unit?: string;
    /** A vendor metric the portal does not know (kind 'unknown'). */
    metric?: string;
    sourceId?: string | null;
  },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('unmatched_readings')
    .values({
      device_identifier: u.deviceIdentifier,
      measured_at: momentSql(u.measuredAt ?? { ago: '0 seconds' }),
      ...storedValues({ ...u, kind: u.kind ?? 'blood_pressure' }),
      metric: u.metric ?? null,
      source_id: u.sourceId ?? null,
      ...(u.measurementIndex === undefined ? {} : { measurement_index: u.measurementIndex }),
      ...(u.receivedAt === undefined ? {} : { received_at: momentSql(u.receivedAt) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An alert of a patient, as evaluation raises one (no reading linked); open and raised now unless told. */
export async function buildAlert(
  db: Queryable,
  a: {
    patientId: number;
    organizationId: number;
    rule?: string;
    severity?: string;
    severityRank?: number;
    values?: Record<string, number>;
    status?: 'open' | 'acknowledged' | 'resolved';
    /** How long ago it was first raised (its last reading is now). */
    minutesAgo?: number;
    snoozedUntil?: Date | null;
    escalated?: boolean;
  },
): Promise<number> {
  const status = a.status ?? 'open';
  const { id } = await kysely(db)
    .insertInto('alerts')
    .values({
      patient_id: a.patientId,
      organization_id: a.organizationId,
      rule: a.rule ?? 'bp_stage2',
      severity: a.severity ?? 'warning',
      severity_rank: a.severityRank ?? 1,
      status,
      first_at: a.minutesAgo === undefined ? sql`now()` : sql`now() - make_interval(mins => ${a.minutesAgo}::int)`,
      last_at: sql`now()`,
      last_values: JSON.stringify(a.values ?? { systolic: 150, diastolic: 95 }),
      snoozed_until: a.snoozedUntil ?? null,
      escalated_at: a.escalated ? sql`now()` : null,
      acknowledged_at: status === 'acknowledged' ? sql`now()` : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An organization's alert settings row with its escalation (other settings keep their defaults). */
export async function buildAlertSettings(
  db: Queryable,
  s: { organizationId: number; escalationMinutes?: number | null; escalationContactIds?: number[] },
): Promise<void> {
  await kysely(db)
    .insertInto('alert_settings')
    .values({
      organization_id: s.organizationId,
      escalation_minutes: s.escalationMinutes ?? null,
      ...(s.escalationContactIds === undefined ? {} : { escalation_contact_ids: s.escalationContactIds }),
    })
    .execute();
}

/**
 * A patient's care programs (hypertension, heart_failure, …), as the programs form stores them,
 * enrolled one after the other in the order given (lists show them in enrollment order).
 */
export async function buildPatientPrograms(db: Queryable, patientId: number, programs: string[]): Promise<void> {
  for (const program of programs) {
    await kysely(db).insertInto('patient_programs').values({ patient_id: patientId, program_id: program }).execute();
  }
}

/** An outreach attempt logged for a patient. */
export async function buildOutreach(
  db: Queryable,
  o: { patientId: number; outcome: string; at?: Moment; userId?: number | null },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('patient_outreach')
    .values({
      patient_id: o.patientId,
      outcome: o.outcome,
      user_id: o.userId ?? null,
      ...(o.at === undefined ? {} : { created_at: momentSql(o.at) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Replaces a patient's spans of activity, as an enrollment history would have left them (the
 * owner repairs history: give the owner's pool). `null` as an end is "still active".
 */
export async function setActiveSpans(
  db: Queryable,
  patientId: number,
  spans: [string, string | null][],
): Promise<void> {
  await kysely(db).deleteFrom('patient_active_spans').where('patient_id', '=', patientId).execute();
  if (spans.length === 0) return;
  await kysely(db)
    .insertInto('patient_active_spans')
    .values(spans.map(([from, to]) => ({ patient_id: patientId, active_from: from, active_to: to })))
    .execute();
}

/**
 * Many readings of one patient at once (a set-based insert), for tests that need more than a page
 * or many export chunks: reading n (from 1) is taken n × `every` before `from` (now by default),
 * or (n / 2) × `every` with `pairs`, which puts two readings at each time; values vary with n.
 */
export async function buildManyReadings(
  db: Queryable,
  patientId: number,
  r: {
    count: number;
    kind: 'blood_pressure' | 'heart_rate';
    pairs?: boolean;
    every: string;
    from?: Moment;
  },
): Promise<void> {
  const step = r.pairs ? sql`(g / 2)` : sql`g`;
  const from = r.from === undefined ? sql`now()` : momentSql(r.from);
  const components =
    r.kind === 'blood_pressure'
      ? sql`jsonb_build_object('systolic', 110 + g % 40, 'diastolic', 70 + g % 20, 'pulse', 60 + g % 30)`
      : sql`jsonb_build_object('pulse', 60 + g % 30)`;
  await sql`
    INSERT INTO observations (patient_id, kind, components, unit, created_at)
    SELECT ${patientId}, ${r.kind}, ${components}, ${r.kind === 'blood_pressure' ? 'mm[Hg]' : '/min'},
           ${from} - ${step} * ${r.every}::interval
      FROM generate_series(1, ${r.count}::int) g`.execute(kysely(db));
}

/** An export request row held in a state (no job takes it), for limits on exports in flight. */
export async function buildBulkExport(
  db: Queryable,
  e: {
    organizationId: number;
    requesterKind: 'staff' | 'client';
    requesterId: string;
    status: string;
    types?: string[];
  },
): Promise<string> {
  const { id } = await kysely(db)
    .insertInto('bulk_exports')
    .values({
      id: randomUUID(),
      organization_id: e.organizationId,
      requester_kind: e.requesterKind,
      requester_id: e.requesterId,
      types: e.types ?? ['Patient'],
      status: e.status,
      request_url: 'test',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Closes a billing month without an admin (what the close route does, minus the snapshot): `month`
 * ('YYYY-MM-DD', its first day), or the current month of an organization or of a time zone.
 * Answers the month closed. Only the owner may take a close back.
 */
export async function closeMonth(
  db: Queryable,
  c: { month: string } | { currentOf: number } | { currentIn: string },
): Promise<string> {
  const month =
    'month' in c
      ? sql<string>`${c.month}::date`
      : 'currentIn' in c
        ? sql<string>`date_trunc('month', now() AT TIME ZONE ${c.currentIn})::date`
        : sql<string>`(SELECT date_trunc('month', now() AT TIME ZONE time_zone)::date FROM organizations WHERE id = ${c.currentOf})`;
  const row = await kysely(db)
    .insertInto('billing_closed_months')
    .values({ month })
    .returning(sql<string>`to_char(month, 'YYYY-MM-DD')`.as('month'))
    .executeTakeFirstOrThrow();
  return row.month;
}

/**
 * An ingestion source (a device cloud or a FHIR caller) of an organization, made as the API makes
 * one (through the database function the runtime role may call); answers its id and secret.
 */
export async function buildSource(
  db: Queryable,
  s: {
    organizationId: number;
    name?: string;
    kind?: IngestionSourceKind;
    authHeader?: string | null;
    canRead?: boolean;
    /** None by default: the column allows it, and most tests do not care who made the source. */
    createdBy?: number | null;
    expiresAt?: Date | null;
  },
): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = newSourceSecret(id);
  await insertSource(db, {
    id,
    name: s.name ?? unique('Source'),
    kind: s.kind ?? 'tenovi',
    authHeader: s.authHeader ?? null,
    canRead: s.canRead ?? false,
    secretHash: hashSecret(secret),
    createdBy: (s.createdBy ?? null) as number,
    organizationId: s.organizationId,
    expiresAt: s.expiresAt ?? null,
  });
  return { id, secret };
}

/**
 * Audit records as the portal's audit calls leave them (queued for the sealer), `count` at once,
 * for tests of reading the trail; `of(n)` (n from 1) says what the n-th one is.
 */
export async function buildAuditRecords(
  db: Queryable,
  count: number,
  of: (n: number) => { action: string; outcome?: string; details?: Record<string, unknown>; at?: Moment },
): Promise<void> {
  const records = Array.from({ length: count }, (_, i) => of(i + 1));
  await kysely(db)
    .insertInto('audit_logs')
    .values(
      records.map((r) => ({
        action: r.action,
        outcome: r.outcome ?? 'success',
        details: r.details === undefined ? null : JSON.stringify(r.details),
        ...(r.at === undefined ? {} : { timestamp: momentSql(r.at) }),
      })),
    )
    .execute();
}

/** Back-dates the arrival of unmatched readings that came in through ingestion, for retention tests. */
export async function setUnmatchedReceivedAt(
  db: Queryable,
  deviceIdentifiers: string[],
  receivedAt: Moment,
): Promise<void> {
  await kysely(db)
    .updateTable('unmatched_readings')
    .set({ received_at: momentSql(receivedAt) })
    .where('device_identifier', 'in', deviceIdentifiers)
    .execute();
}
