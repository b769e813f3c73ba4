-- The runtime role also uses the job queue: it reads and writes its tables (jobs, schedules,
-- queues) and calls its functions, but creates nothing (the queues are made by 0911).
-- Same function as 0741 with the "pgboss" schema added.
CREATE OR REPLACE FUNCTION rpm_grant_runtime_role(r name) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t record;
  privileges text;
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA public, identity, pgboss TO %I', r);
  FOR t IN
    SELECT n.nspname, c.relname
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname IN ('public', 'identity', 'pgboss') AND c.relkind IN ('r', 'p')
  LOOP
    privileges := CASE
      WHEN t.nspname = 'public' AND t.relname IN ('audit_logs', 'audit_chain') THEN 'SELECT, INSERT'
      -- The sealer takes records off its queue when it links them.
      WHEN t.nspname = 'public' AND t.relname = 'audit_unsealed' THEN 'SELECT, INSERT, DELETE'
      WHEN t.nspname = 'public' AND t.relname IN ('audit_chain_sha256_legacy', 'schema_migrations') THEN 'SELECT'
      WHEN t.nspname = 'pgboss' AND t.relname = 'version' THEN 'SELECT, UPDATE'
      ELSE 'SELECT, INSERT, UPDATE, DELETE'
    END;
    EXECUTE format('REVOKE ALL ON TABLE %I.%I FROM %I', t.nspname, t.relname, r);
    EXECUTE format('GRANT %s ON TABLE %I.%I TO %I', privileges, t.nspname, t.relname, r);
  END LOOP;
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, identity TO %I', r);
  -- The DB inspector reads with SET LOCAL ROLE rpm_inspector, and keeps that role's column grants
  -- up to date through a function that runs with its owner's rights.
  EXECUTE format('GRANT rpm_inspector TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_inspector_sync_grants() TO %I', r);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_grant_runtime_role(name) FROM PUBLIC;
