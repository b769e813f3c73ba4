-- The runtime role could delete from the sealer's queue (audit_unsealed), and so take a record
-- that is committed but not linked yet out of both the queue and the chain: a removal the
-- verifier could no longer tell from a record that never was. Now the queue only shrinks through
-- a function running with the owner's rights that removes the entries of records already linked
-- (or of records that no longer exist, which the verifier reports by their absence, as before).
-- The sealer calls it in the transaction that inserts the links, so a record is still, in every
-- snapshot, either sealed or queued.

CREATE FUNCTION audit_unsealed_take_sealed(ids bigint[]) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH taken AS (
    DELETE FROM public.audit_unsealed u
     WHERE u.log_id = ANY (ids)
       AND (EXISTS (SELECT 1 FROM public.audit_chain c WHERE c.log_id = u.log_id)
            OR NOT EXISTS (SELECT 1 FROM public.audit_logs a WHERE a.id = u.log_id))
    RETURNING 1
  )
  SELECT count(*)::integer FROM taken;
$$;
REVOKE EXECUTE ON FUNCTION audit_unsealed_take_sealed(bigint[]) FROM PUBLIC;

-- Same function as 0951, with two lines changed: no DELETE on audit_unsealed, and EXECUTE on the
-- function above.
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
      -- The sealer takes records off its queue only through audit_unsealed_take_sealed().
      WHEN t.nspname = 'public' AND t.relname = 'audit_unsealed' THEN 'SELECT, INSERT'
      WHEN t.nspname = 'public' AND t.relname IN ('audit_chain_sha256_legacy', 'schema_migrations') THEN 'SELECT'
      WHEN t.nspname = 'public' AND t.relname = 'ingestion_sources' THEN 'SELECT'
      WHEN t.nspname = 'pgboss' AND t.relname = 'version' THEN 'SELECT, UPDATE'
      ELSE 'SELECT, INSERT, UPDATE, DELETE'
    END;
    -- Revoking the table's privileges revokes its columns' too.
    EXECUTE format('REVOKE ALL ON TABLE %I.%I FROM %I', t.nspname, t.relname, r);
    EXECUTE format('GRANT %s ON TABLE %I.%I TO %I', privileges, t.nspname, t.relname, r);
  END LOOP;
  -- Sources: revoking and assigning an organization; their secrets only through the 0951 functions.
  EXECUTE format('GRANT UPDATE (revoked_at, organization_id) ON TABLE public.ingestion_sources TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_create_ingestion_source(uuid, text, text, text, boolean, bytea, '
                 'integer, integer, timestamptz), rpm_rotate_ingestion_source(uuid, bytea, integer) TO %I', r);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, identity TO %I', r);
  -- The DB inspector reads with SET LOCAL ROLE rpm_inspector, and keeps that role's column grants
  -- up to date through a function that runs with its owner's rights.
  EXECUTE format('GRANT rpm_inspector TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_inspector_sync_grants() TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION audit_unsealed_take_sealed(bigint[]) TO %I', r);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_grant_runtime_role(name) FROM PUBLIC;
