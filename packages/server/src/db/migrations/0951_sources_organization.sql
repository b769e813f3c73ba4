-- Sources belong to an organization, name their secret header among custom headers, and the
-- portal's runtime role cannot write a source's secret hash by itself.

-- New sources are made for one organization and send their secret in a custom x- header (a
-- standard header such as cookie, authorization or host, or an x- header that proxies set or the
-- portal logs, would carry the secret elsewhere; the list is contracts' RESERVED_AUTH_HEADER_PATTERN). NOT VALID: sources made before keep working until an admin acts, and the authentication
-- refuses those the rules leave out. Checked on every insert and update, a revoked source is let
-- through so that an old one can still be revoked.
ALTER TABLE ingestion_sources
  ADD CONSTRAINT ingestion_sources_organization_required
    CHECK (organization_id IS NOT NULL OR revoked_at IS NOT NULL) NOT VALID,
  ADD CONSTRAINT ingestion_sources_auth_header_custom
    CHECK (auth_header IS NULL OR revoked_at IS NOT NULL
           OR (auth_header ~ '^x-[a-z0-9-]{1,62}$'
               AND auth_header !~ '^x-(forwarded|real-ip|client-ip|request-id|requested-with|correlation-id|amz|amzn|csrf|xsrf|http-method|original)'))
    NOT VALID;

-- Secret hashes are written only by these two functions, running with their owner's rights: the
-- runtime role may insert no row and update no hash by itself (rpm_grant_runtime_role below), so a
-- statement injected into the portal cannot quietly swap the key of a live source. A replaced hash
-- is always stamped (rotated_at), never set on a revoked source, and always 32 bytes.
CREATE FUNCTION rpm_create_ingestion_source(
  p_id uuid, p_name text, p_kind text, p_auth_header text, p_can_read boolean, p_secret_hash bytea,
  p_created_by integer, p_organization_id integer, p_expires_at timestamptz
) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  IF p_id IS NULL OR p_secret_hash IS NULL OR length(p_secret_hash) <> 32 THEN
    RAISE EXCEPTION 'a source needs an id and a 32-byte secret hash' USING ERRCODE = '22023';
  END IF;
  IF p_organization_id IS NULL THEN
    RAISE EXCEPTION 'a source needs an organization' USING ERRCODE = '22023';
  END IF;
  IF p_expires_at IS NOT NULL AND p_expires_at <= now() THEN
    RAISE EXCEPTION 'a source cannot be made expired' USING ERRCODE = '22023';
  END IF;
  INSERT INTO ingestion_sources (id, name, kind, auth_header, can_read, secret_hash, created_by, organization_id,
                                 expires_at)
  VALUES (p_id, p_name, p_kind, p_auth_header, coalesce(p_can_read, false), p_secret_hash, p_created_by,
          p_organization_id, p_expires_at);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_create_ingestion_source(uuid, text, text, text, boolean, bytea, integer, integer,
                                                       timestamptz) FROM PUBLIC;

-- A new secret for a live source; false when the source is unknown or revoked. A key with an
-- expiry (read keys get one) is renewed for as long as it was given last time (capped at 365
-- days); a read key made before keys expired gets `p_default_days`.
CREATE FUNCTION rpm_rotate_ingestion_source(p_id uuid, p_secret_hash bytea, p_default_days integer)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  IF p_id IS NULL OR p_secret_hash IS NULL OR length(p_secret_hash) <> 32 THEN
    RAISE EXCEPTION 'a rotation needs a source id and a 32-byte secret hash' USING ERRCODE = '22023';
  END IF;
  IF p_default_days IS NULL OR p_default_days NOT BETWEEN 1 AND 365 THEN
    RAISE EXCEPTION 'a read key lasts 1 to 365 days' USING ERRCODE = '22023';
  END IF;
  UPDATE ingestion_sources
     SET secret_hash = p_secret_hash,
         rotated_at  = now(),
         expires_at  = CASE WHEN expires_at IS NOT NULL OR (kind = 'fhir' AND can_read) THEN
                         now() + LEAST(interval '365 days', coalesce(expires_at - coalesce(rotated_at, created_at),
                                                                     make_interval(days => p_default_days)))
                       END
   WHERE id = p_id AND revoked_at IS NULL;
  RETURN FOUND;
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_rotate_ingestion_source(uuid, bytea, integer) FROM PUBLIC;

-- Same function as 0912, with ingestion_sources held to reading, revoking and assigning an
-- organization (the two functions above write the rest), re-run at every start.
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
      WHEN t.nspname = 'public' AND t.relname = 'ingestion_sources' THEN 'SELECT'
      WHEN t.nspname = 'pgboss' AND t.relname = 'version' THEN 'SELECT, UPDATE'
      ELSE 'SELECT, INSERT, UPDATE, DELETE'
    END;
    -- Revoking the table's privileges revokes its columns' too.
    EXECUTE format('REVOKE ALL ON TABLE %I.%I FROM %I', t.nspname, t.relname, r);
    EXECUTE format('GRANT %s ON TABLE %I.%I TO %I', privileges, t.nspname, t.relname, r);
  END LOOP;
  EXECUTE format('GRANT UPDATE (revoked_at, organization_id) ON TABLE public.ingestion_sources TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_create_ingestion_source(uuid, text, text, text, boolean, bytea, '
                 'integer, integer, timestamptz), rpm_rotate_ingestion_source(uuid, bytea, integer) TO %I', r);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, identity TO %I', r);
  -- The DB inspector reads with SET LOCAL ROLE rpm_inspector, and keeps that role's column grants
  -- up to date through a function that runs with its owner's rights.
  EXECUTE format('GRANT rpm_inspector TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_inspector_sync_grants() TO %I', r);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_grant_runtime_role(name) FROM PUBLIC;

-- A reading parked in the unmatched list moves to the patient a device is assigned to only when
-- the source that sent it is of that patient's organization (or no source sent it): a device
-- cloud of one organization never writes into another's patients by way of the unmatched list.
-- Same function as 0950 otherwise.
CREATE OR REPLACE FUNCTION devices_track_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous_end timestamptz;
  since        timestamptz;
  patient_org  integer;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.patient_id IS NOT NULL THEN
    UPDATE device_assignments SET assigned_to = now() WHERE device_id = NEW.id AND assigned_to IS NULL;
  END IF;
  IF NEW.patient_id IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT organization_id INTO patient_org FROM patients WHERE id = NEW.patient_id;
  SELECT max(assigned_to) INTO previous_end FROM device_assignments WHERE device_id = NEW.id;
  SELECT LEAST(now(), min(u.measured_at)) INTO since
    FROM unmatched_readings u
    LEFT JOIN ingestion_sources s ON s.id = u.source_id
   WHERE lower(btrim(u.device_identifier)) = lower(btrim(NEW.device_id))
     AND (previous_end IS NULL OR u.measured_at >= previous_end)
     AND (u.source_id IS NULL OR s.organization_id = patient_org);
  since := COALESCE(since, now());
  INSERT INTO device_assignments (device_id, patient_id, assigned_from) VALUES (NEW.id, NEW.patient_id, since);
  WITH moved AS (
    DELETE FROM unmatched_readings u
     WHERE lower(btrim(u.device_identifier)) = lower(btrim(NEW.device_id))
       AND u.measured_at >= since AND (u.systolic IS NOT NULL OR u.kind = 'heart_rate')
       AND (u.source_id IS NULL
            OR EXISTS (SELECT 1 FROM ingestion_sources s WHERE s.id = u.source_id AND s.organization_id = patient_org))
    RETURNING u.*
  )
  INSERT INTO vitals (patient_id, device_id, source, created_at, measurement_index, kind, systolic, diastolic, pulse,
                      irregular_heartbeat, source_id, received_at)
  SELECT NEW.patient_id, NEW.id, NEW.device_id, m.measured_at, m.measurement_index, m.kind, m.systolic, m.diastolic,
         m.pulse, m.irregular_heartbeat, m.source_id, m.received_at
    FROM moved m
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
