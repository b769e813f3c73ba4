-- The database inspector reads as its own role, which can SELECT only the columns it may show.
-- Even a bug in the inspector's code cannot then read sessions, secrets or another schema.
-- Roles are cluster-wide (several portal databases may share one server), hence the guard.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'rpm_inspector') THEN
    CREATE ROLE rpm_inspector NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
END
$$;

-- The portal's own login role must be a member to `SET ROLE rpm_inspector` inside a transaction.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'rpm_inspector', 'MEMBER') THEN
    EXECUTE format('GRANT rpm_inspector TO %I', current_user);
  END IF;
END
$$;

-- Which columns the inspector may read: every column of the portal's tables in schema public,
-- except the sessions and migrations bookkeeping and any column whose name looks secret (all
-- cognito_* columns: the pool's username can equal the token subject). Kept
-- in step with SECRET_COLUMN_PATTERN in db-inspector.service.ts. Re-run by the portal (once per
-- process) so that tables added by later migrations are covered too.
CREATE OR REPLACE FUNCTION rpm_inspector_sync_grants() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t record;
  col record;
BEGIN
  FOR t IN
    SELECT c.oid, c.relname
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    -- Revoking table privileges also revokes every column privilege on that table.
    EXECUTE format('REVOKE ALL ON TABLE public.%I FROM rpm_inspector', t.relname);
    CONTINUE WHEN t.relname IN ('sessions', 'schema_migrations');
    FOR col IN
      SELECT a.attname
        FROM pg_attribute a
       WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
         AND a.attname !~* '(hash|token|secret|salt|otp|password|cognito_)'
    LOOP
      EXECUTE format('GRANT SELECT (%I) ON TABLE public.%I TO rpm_inspector', col.attname, t.relname);
    END LOOP;
  END LOOP;
END
$$;

SELECT rpm_inspector_sync_grants();
