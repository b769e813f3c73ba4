import type { Organization, OrganizationSettings, Provider } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

export async function listOrganizations(db: Queryable, onlyId: number | null): Promise<Organization[]> {
  const { rows } = await db.query<Organization>(
    `SELECT id, name FROM organizations
      WHERE $1::int IS NULL OR id = $1
      ORDER BY lower(name), id`,
    [onlyId],
  );
  return rows;
}

export async function organizationExists(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM organizations WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

export async function findOrganizationSettings(db: Queryable, id: number): Promise<OrganizationSettings | null> {
  const { rows } = await db.query<OrganizationSettings>('SELECT id, name, require_mfa FROM organizations WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function setRequireMfa(db: Queryable, id: number, requireMfa: boolean): Promise<OrganizationSettings | null> {
  const { rows } = await db.query<OrganizationSettings>(
    'UPDATE organizations SET require_mfa = $2 WHERE id = $1 RETURNING id, name, require_mfa',
    [id, requireMfa],
  );
  return rows[0] ?? null;
}

/** Null when the name is taken (the unique index is on the trimmed, lower-cased name). */
export async function insertOrganization(db: Queryable, name: string): Promise<Organization | null> {
  const { rows } = await db.query<Organization>(
    `INSERT INTO organizations (name) VALUES ($1)
     ON CONFLICT ((lower(btrim(name)))) DO NOTHING
     RETURNING id, name`,
    [name],
  );
  return rows[0] ?? null;
}

/** Active providers of an organization; a provider without a name is shown by email. */
export async function listProviders(db: Queryable, organizationId: number): Promise<Provider[]> {
  const { rows } = await db.query<Provider>(
    `SELECT id,
            COALESCE(NULLIF(btrim(concat_ws(' ', NULLIF(btrim(first_name), ''), NULLIF(btrim(last_name), ''))), ''), email) AS name
       FROM users
      WHERE organization_id = $1 AND role = 'provider' AND status = 'active'
      ORDER BY lower(last_name) NULLS LAST, lower(first_name) NULLS LAST, id`,
    [organizationId],
  );
  return rows;
}
