import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { TimerStart } from '@rpm/contracts';

export interface OrganizationRow {
  id: number;
  name: string;
  require_mfa: boolean;
  /** IANA name; billing days are counted in it. */
  time_zone: string;
  /** How the care timer starts for providers: 'open' or 'click' (a CHECK keeps it so). */
  timer_start: string;
  /** Months the organization keeps its readings; null keeps them (the partition maintenance applies it). */
  observation_retention_months: number | null;
}

export interface ProviderRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string;
}

const ORGANIZATION_COLUMNS = ['id', 'name', 'require_mfa', 'time_zone', 'timer_start', 'observation_retention_months'] as const;

/** Every organization by name, or (`onlyId` set) that one alone. */
export async function listOrganizations(db: Queryable, onlyId: number | null): Promise<OrganizationRow[]> {
  let q = kysely(db).selectFrom('organizations').select(ORGANIZATION_COLUMNS);
  if (onlyId !== null) q = q.where('id', '=', onlyId);
  return q.orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findOrganization(db: Queryable, id: number): Promise<OrganizationRow | undefined> {
  return kysely(db).selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function organizationExists(db: Queryable, id: number): Promise<boolean> {
  return (await findOrganization(db, id)) !== undefined;
}

/** A setting left undefined keeps its current value. */
export async function setOrganizationSettings(
  db: Queryable,
  id: number,
  settings: { requireMfa: boolean; timeZone?: string; timerStart?: TimerStart; retentionMonths?: number | null },
): Promise<OrganizationRow | undefined> {
  return kysely(db)
    .updateTable('organizations')
    .set({
      require_mfa: settings.requireMfa,
      ...(settings.timeZone === undefined ? {} : { time_zone: settings.timeZone }),
      ...(settings.timerStart === undefined ? {} : { timer_start: settings.timerStart }),
      ...(settings.retentionMonths === undefined ? {} : { observation_retention_months: settings.retentionMonths }),
    })
    .where('id', '=', id)
    .returning(ORGANIZATION_COLUMNS)
    .executeTakeFirst();
}

/** Undefined when the name is taken (the unique index is on the trimmed, lower-cased name). */
export async function insertOrganization(db: Queryable, name: string): Promise<OrganizationRow | undefined> {
  return kysely(db)
    .insertInto('organizations')
    .values({ name })
    .onConflict((oc) => oc.expression(sql`(lower(btrim(name)))`).doNothing())
    .returning(ORGANIZATION_COLUMNS)
    .executeTakeFirst();
}

/** Active providers of an organization, by last then first name. */
export async function listProviders(db: Queryable, organizationId: number): Promise<ProviderRow[]> {
  return kysely(db)
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'provider')
    .where('status', '=', 'active')
    .orderBy(sql`lower(last_name)`, (ob) => ob.asc().nullsLast())
    .orderBy(sql`lower(first_name)`, (ob) => ob.asc().nullsLast())
    .orderBy('id')
    .execute();
}

/** Whether PostgreSQL knows the time zone name (billing days are counted with it). */
export async function isKnownTimeZone(db: Queryable, name: string): Promise<boolean> {
  const row = await sql<{ ok: number }>`SELECT 1 AS ok FROM pg_timezone_names WHERE name = ${name}`.execute(kysely(db));
  return row.rows.length > 0;
}

/** An organization's display units as stored (kind -> UCUM code); undefined for no such organization. */
export async function findDisplayUnits(db: Queryable, id: number): Promise<unknown> {
  const row = await kysely(db).selectFrom('organizations').select('display_units').where('id', '=', id).executeTakeFirst();
  return row?.display_units;
}

/** Replaces an organization's display units; false for no such organization. */
export async function setDisplayUnits(db: Queryable, id: number, units: Record<string, string>): Promise<boolean> {
  const row = await kysely(db)
    .updateTable('organizations')
    .set({ display_units: JSON.stringify(units) })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
