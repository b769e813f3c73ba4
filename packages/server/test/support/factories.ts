import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@rpm/contracts';
import type { Queryable } from '../../src/db/pool.ts';
import { kysely } from '../../src/db/kysely.ts';
import { actorOf, type Actor } from '../../src/policies/actor.ts';
import type { SignedInContext } from '../../src/kernel/request-context.ts';

/**
 * Rows for service tests, written straight to the test database: each factory fills what the
 * test does not care about with unique values, so tests name only what they are about.
 */
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

export async function buildOrganization(db: Queryable, o: { name?: string; requireMfa?: boolean } = {}) {
  return kysely(db)
    .insertInto('organizations')
    .values({ name: o.name ?? unique('Clinic'), require_mfa: o.requireMfa ?? false })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
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
}

/** A staff member, returned as the actor a signed-in request of theirs would carry. */
export async function buildStaff(db: Queryable, role: Role, s: StaffOptions = {}): Promise<Actor> {
  const email = s.email ?? `${unique(role)}@example.com`;
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
    })
    .returning(['id', 'email', 'organization_id', 'cognito_username'])
    .executeTakeFirstOrThrow();
  return actorOf({ id: row.id, email: row.email, role, organizationId: row.organization_id, cognitoUsername: row.cognito_username });
}

export async function buildPatient(
  db: Queryable,
  p: { organizationId: number; firstName?: string; lastName?: string; dateOfBirth?: string | null; primaryProviderId?: number | null },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('patients')
    .values({
      organization_id: p.organizationId,
      first_name: p.firstName ?? 'Pat',
      last_name: p.lastName ?? unique('Patient'),
      date_of_birth: p.dateOfBirth ?? null,
      primary_provider_id: p.primaryProviderId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function buildDevice(db: Queryable, d: { deviceId?: string; patientId?: number | null } = {}): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('devices')
    .values({ device_id: d.deviceId ?? unique('DEV'), patient_id: d.patientId ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** What a service receives for a request of `actor`; the request id finds its audit records. */
export function contextOf(actor: Actor): SignedInContext {
  return { actor, ip: '127.0.0.1', userAgent: 'service-test', requestId: randomUUID() };
}

/** The audit records one request left, oldest first. */
export async function auditsOf(db: Queryable, ctx: SignedInContext) {
  return kysely(db)
    .selectFrom('audit_logs')
    .select(['action', 'outcome', 'resource_type', 'resource_id', 'reason', 'details', 'target_user_id'])
    .where('request_id', '=', ctx.requestId)
    .orderBy('id')
    .execute();
}

/**
 * Calls a service as `actor` expecting a refusal: its status and message, and the audit records
 * the request left. `status` is undefined when the call did not fail.
 */
export async function refusalOf(db: Queryable, actor: Actor, call: (ctx: SignedInContext) => Promise<unknown>) {
  const ctx = contextOf(actor);
  const error = await call(ctx).then(
    () => null,
    (err: unknown) => err as { statusCode?: number; message?: string },
  );
  return { status: error?.statusCode, message: error?.message, audits: await auditsOf(db, ctx) };
}
