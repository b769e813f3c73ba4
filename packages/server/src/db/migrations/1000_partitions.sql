-- Growth without slowdown (issue 28): observations and audit records are partitioned by calendar
-- month (UTC) of the reading's measured time and of the audit record's "timestamp". A month's
-- working set (its indexes) stays small however many years the database holds, and an old month
-- leaves as one table (dropped by retention, or detached and moved to cheaper storage by an
-- operator) instead of as millions of row deletions.
--
-- The month tables live in their own schema, `partitions`: the portal's runtime role has no
-- USAGE on it, so it reaches rows only through the parent tables (with their triggers and grants),
-- and the DB inspector, the runtime grants and the generated table types, which all read schema
-- public, do not list a new table every month. Each parent also has a DEFAULT partition, so a
-- reading dated far outside the months created (a device clock in 1970) is still stored, never
-- refused.
--
-- Month tables are created ahead by rpm_partitions_ensure(), which the portal runs at start and
-- daily (a pg-boss job, modules/partitions). Only functions running with the owner's rights create
-- or drop them; the runtime role may call those functions and nothing else of the kind.

CREATE SCHEMA partitions;
REVOKE ALL ON SCHEMA partitions FROM PUBLIC;

-- "observations_y2026m11": the month table's name.
CREATE FUNCTION rpm_partition_name(base text, month date) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format('%s_y%sm%s', base, to_char(month, 'YYYY'), to_char(month, 'MM'))
$$;

-- The first instant of a calendar month in UTC (partition bounds do not depend on the session's
-- TimeZone).
CREATE FUNCTION rpm_month_start(month date) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', month)::timestamp AT TIME ZONE 'UTC'
$$;

-- Creates the month table of `base` (observations or audit_logs) for `month` unless it exists.
-- 'created', 'exists', or 'in_default' when the DEFAULT partition already holds rows of that month
-- (creating it would fail; those rows stay in the default, still read and still expired by
-- retention, and the month is left to an operator).
CREATE FUNCTION rpm_partition_create(base text, month date) RETURNS text
  LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
  part  text := rpm_partition_name(base, month);
  lo    timestamptz := rpm_month_start(month);
  hi    timestamptz := rpm_month_start((date_trunc('month', month) + interval '1 month')::date);
  col   text := CASE base WHEN 'observations' THEN 'created_at' WHEN 'audit_logs' THEN 'timestamp' END;
  taken boolean;
BEGIN
  IF col IS NULL THEN
    RAISE EXCEPTION 'not a partitioned table of the portal: %', base;
  END IF;
  IF to_regclass(format('partitions.%I', part)) IS NOT NULL THEN
    RETURN 'exists';
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM partitions.%I WHERE %I >= $1 AND %I < $2)', base || '_default', col, col)
    INTO taken USING lo, hi;
  IF taken THEN
    RETURN 'in_default';
  END IF;
  EXECUTE format('CREATE TABLE partitions.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)', part, base, lo, hi);
  IF base = 'audit_logs' THEN
    -- Statement triggers of a parent do not fire for a TRUNCATE of one of its partitions.
    EXECUTE format('CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON partitions.%I '
                   'FOR EACH STATEMENT EXECUTE FUNCTION public.audit_logs_append_only()', part);
  END IF;
  RETURN 'created';
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_partition_create(text, date) FROM PUBLIC;

-- ---- observations ------------------------------------------------------------------------------

-- The references to a reading by id become triggers (below): a foreign key to a partitioned table
-- must name its whole primary key, which now includes the measured time.
ALTER TABLE alert_readings DROP CONSTRAINT alert_readings_vital_id_fkey;
ALTER TABLE alerts DROP CONSTRAINT alerts_last_vital_id_fkey;
ALTER TABLE observation_identifiers DROP CONSTRAINT observation_identifiers_observation_id_fkey;

ALTER TABLE observations RENAME TO observations_unpartitioned;
ALTER SEQUENCE observations_id_seq RENAME TO observations_unpartitioned_id_seq;
ALTER INDEX observations_pkey RENAME TO observations_unpartitioned_pkey;
ALTER INDEX observations_patient_time_idx RENAME TO observations_unpartitioned_patient_time_idx;
ALTER INDEX observations_device_reading_key RENAME TO observations_unpartitioned_device_reading_key;
ALTER INDEX observations_device_day_idx RENAME TO observations_unpartitioned_device_day_idx;
ALTER INDEX observations_patient_kind_time_idx RENAME TO observations_unpartitioned_patient_kind_time_idx;

CREATE TABLE observations (
  id                  bigint GENERATED ALWAYS AS IDENTITY,
  patient_id          integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  device_id           integer REFERENCES devices (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  source              text NOT NULL DEFAULT 'manual' CONSTRAINT observations_source_check CHECK (length(source) BETWEEN 1 AND 100),
  measurement_index   integer NOT NULL DEFAULT 0,
  irregular_heartbeat boolean,
  source_id           uuid REFERENCES ingestion_sources (id) ON DELETE SET NULL,
  received_at         timestamptz NOT NULL DEFAULT now(),
  kind                text NOT NULL CONSTRAINT observations_kind_name CHECK (kind ~ '^[a-z][a-z0-9_]{0,39}$'),
  components          jsonb NOT NULL,
  unit                text NOT NULL CONSTRAINT observations_unit_check CHECK (length(unit) BETWEEN 1 AND 20),
  systolic            smallint GENERATED ALWAYS AS (round((components ->> 'systolic')::numeric)::smallint) STORED
                      CONSTRAINT observations_systolic_check CHECK (systolic BETWEEN 40 AND 300),
  diastolic           smallint GENERATED ALWAYS AS (round((components ->> 'diastolic')::numeric)::smallint) STORED
                      CONSTRAINT observations_diastolic_check CHECK (diastolic BETWEEN 20 AND 200),
  pulse               smallint GENERATED ALWAYS AS (round((components ->> 'pulse')::numeric)::smallint) STORED
                      CONSTRAINT observations_pulse_check CHECK (pulse BETWEEN 20 AND 300),
  CONSTRAINT observations_components_object CHECK (jsonb_typeof(components) = 'object' AND components <> '{}'),
  CONSTRAINT observations_blood_pressure_pair CHECK (
    kind <> 'blood_pressure' OR (components ? 'systolic' AND components ? 'diastolic'))
) PARTITION BY RANGE (created_at);
CREATE TABLE partitions.observations_default PARTITION OF observations DEFAULT;

-- ---- audit_logs --------------------------------------------------------------------------------

ALTER TABLE audit_logs RENAME TO audit_logs_unpartitioned;
ALTER SEQUENCE audit_logs_id_seq RENAME TO audit_logs_unpartitioned_id_seq;
ALTER INDEX audit_logs_pkey RENAME TO audit_logs_unpartitioned_pkey;
ALTER INDEX audit_logs_time_idx RENAME TO audit_logs_unpartitioned_time_idx;

CREATE TABLE audit_logs (
  id             bigint GENERATED ALWAYS AS IDENTITY,
  "timestamp"    timestamptz NOT NULL DEFAULT clock_timestamp(),
  user_id        integer,
  ip_address     text,
  action         text NOT NULL,
  resource_type  text,
  resource_id    text,
  details        jsonb,
  target_user_id integer,
  outcome        text NOT NULL CONSTRAINT audit_logs_outcome_check CHECK (outcome IN ('success', 'failure', 'denied')),
  reason         text,
  user_agent     text,
  request_id     text
) PARTITION BY RANGE ("timestamp");
CREATE TABLE partitions.audit_logs_default PARTITION OF audit_logs DEFAULT;
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON partitions.audit_logs_default
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();

-- ---- month tables for the rows there are, and a few months ahead -------------------------------

-- From the oldest row's month (at most ten years back: older rows, if any, stay in the default)
-- to three months ahead.
DO $$
DECLARE
  first_month date;
  m date;
  base text;
BEGIN
  FOREACH base IN ARRAY ARRAY['observations', 'audit_logs'] LOOP
    EXECUTE format('SELECT date_trunc(''month'', min(%I) AT TIME ZONE ''UTC'')::date FROM public.%I',
                   CASE base WHEN 'observations' THEN 'created_at' ELSE 'timestamp' END, base || '_unpartitioned')
      INTO first_month;
    first_month := greatest(coalesce(first_month, date_trunc('month', now() AT TIME ZONE 'UTC')::date),
                            (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '10 years')::date);
    m := first_month;
    WHILE m <= (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months')::date LOOP
      PERFORM rpm_partition_create(base, m);
      m := (m + interval '1 month')::date;
    END LOOP;
  END LOOP;
END;
$$;

-- ---- the rows move, keeping their ids; the sequences go on from where they were ----------------

INSERT INTO observations (id, patient_id, device_id, created_at, source, measurement_index, irregular_heartbeat,
                          source_id, received_at, kind, components, unit)
OVERRIDING SYSTEM VALUE
SELECT id, patient_id, device_id, created_at, source, measurement_index, irregular_heartbeat,
       source_id, received_at, kind, components, unit
  FROM observations_unpartitioned;
SELECT setval(pg_get_serial_sequence('observations', 'id'), last_value, is_called) FROM observations_unpartitioned_id_seq;

INSERT INTO audit_logs (id, "timestamp", user_id, ip_address, action, resource_type, resource_id, details,
                        target_user_id, outcome, reason, user_agent, request_id)
OVERRIDING SYSTEM VALUE
SELECT id, "timestamp", user_id, ip_address, action, resource_type, resource_id, details,
       target_user_id, outcome, reason, user_agent, request_id
  FROM audit_logs_unpartitioned;
SELECT setval(pg_get_serial_sequence('audit_logs', 'id'), last_value, is_called) FROM audit_logs_unpartitioned_id_seq;

-- ---- indexes (after the copy: built once, not row by row) --------------------------------------

-- A primary key of a partitioned table includes the partition key; ids stay unique by their
-- identity sequence. Its index also answers a look-up by id alone (one probe per month table).
ALTER TABLE observations ADD CONSTRAINT observations_pkey PRIMARY KEY (id, created_at);
CREATE INDEX observations_patient_time_idx ON observations (patient_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX observations_device_reading_key ON observations (device_id, kind, created_at);
CREATE INDEX observations_device_day_idx ON observations (patient_id, created_at) WHERE source <> 'manual';
CREATE INDEX observations_patient_kind_time_idx ON observations (patient_id, kind, created_at DESC, id DESC);

ALTER TABLE audit_logs ADD CONSTRAINT audit_logs_pkey PRIMARY KEY (id, "timestamp");
CREATE INDEX audit_logs_time_idx ON audit_logs ("timestamp" DESC, id DESC);

-- ---- triggers, as on the tables before ---------------------------------------------------------

CREATE TRIGGER observations_count_insert AFTER INSERT ON observations
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION patient_observation_counts_insert();
CREATE TRIGGER observations_count_delete AFTER DELETE ON observations
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION patient_observation_counts_delete();
CREATE TRIGGER observations_count_update AFTER UPDATE ON observations
  REFERENCING OLD TABLE AS deleted NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION patient_observation_counts_update();
CREATE TRIGGER observations_count_truncate AFTER TRUNCATE ON observations
  FOR EACH STATEMENT EXECUTE FUNCTION patient_observation_counts_truncate();
CREATE TRIGGER observations_keep_closed_months_insert AFTER INSERT ON observations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_keep_closed_months();
CREATE TRIGGER observations_keep_closed_months_update AFTER UPDATE ON observations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_keep_closed_months();
CREATE TRIGGER observations_keep_closed_months_delete AFTER DELETE ON observations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_keep_closed_months();

-- The foreign keys by id, as triggers: a reference must name a stored reading (locked against a
-- concurrent delete, as a foreign key's check does), and a deleted reading takes its references
-- with it (alert readings and FHIR identifiers deleted, an alert's last reading cleared).
-- The referencing column is the trigger's argument.
CREATE FUNCTION observations_reference_exists() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ref bigint := (to_jsonb(NEW) ->> TG_ARGV[0])::bigint;
BEGIN
  IF ref IS NOT NULL AND NOT EXISTS (SELECT 1 FROM observations WHERE id = ref FOR KEY SHARE) THEN
    RAISE EXCEPTION 'insert or update on table "%" violates the reference to observations: no reading %', TG_TABLE_NAME, ref
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER alert_readings_observation_exists BEFORE INSERT OR UPDATE OF vital_id ON alert_readings
  FOR EACH ROW EXECUTE FUNCTION observations_reference_exists('vital_id');
CREATE TRIGGER alerts_observation_exists BEFORE INSERT OR UPDATE OF last_vital_id ON alerts
  FOR EACH ROW WHEN (NEW.last_vital_id IS NOT NULL) EXECUTE FUNCTION observations_reference_exists('last_vital_id');
CREATE TRIGGER observation_identifiers_observation_exists BEFORE INSERT OR UPDATE OF observation_id ON observation_identifiers
  FOR EACH ROW EXECUTE FUNCTION observations_reference_exists('observation_id');

CREATE INDEX alerts_last_vital_idx ON alerts (last_vital_id) WHERE last_vital_id IS NOT NULL;

CREATE FUNCTION observations_drop_references() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM alert_readings WHERE vital_id IN (SELECT id FROM deleted);
  UPDATE alerts SET last_vital_id = NULL WHERE last_vital_id IN (SELECT id FROM deleted);
  DELETE FROM observation_identifiers WHERE observation_id IN (SELECT id FROM deleted);
  RETURN NULL;
END;
$$;
CREATE TRIGGER observations_drop_references AFTER DELETE ON observations
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION observations_drop_references();

CREATE TRIGGER audit_logs_no_update_delete BEFORE UPDATE OR DELETE ON audit_logs
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_logs_enqueue AFTER INSERT ON audit_logs
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_enqueue();

-- The record's digest takes the record's row type: the same function, for the new table's type.
-- The canonical form is unchanged, so every existing link still verifies.
DROP FUNCTION audit_row_hash(audit_logs_unpartitioned);
CREATE FUNCTION audit_row_hash(a audit_logs) RETURNS bytea LANGUAGE sql STABLE AS $$
  SELECT sha256(convert_to(jsonb_build_array(
    a.id, to_char(a."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), a.user_id, a.ip_address,
    a.action, a.resource_type, a.resource_id, a.details, a.target_user_id, a.outcome, a.reason,
    a.user_agent, a.request_id)::text, 'UTF8'))
$$;

-- The old tables are empty of anything not copied; the owner drops them (their append-only
-- triggers guard DELETE and TRUNCATE, not DROP).
DROP TABLE observations_unpartitioned;
DROP TABLE audit_logs_unpartitioned;

-- ---- retention ---------------------------------------------------------------------------------

-- How long an organization keeps its readings, in months; null keeps them. Observations are
-- partitioned by month for every organization together, so retention works in two steps
-- (rpm_observations_expire): the readings of each organization whose retention has passed are
-- deleted (with their references and counts, by the usual triggers), and a month table is dropped
-- whole only when every organization's retention has passed for all of that month.
ALTER TABLE organizations ADD COLUMN observation_retention_months integer
  CHECK (observation_retention_months BETWEEN 1 AND 1200);

-- Every month table dropped, with the ids its records had: the audit verifier tells a link whose
-- record left with an expired month from a record removed otherwise.
CREATE TABLE partition_drops (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  base       text NOT NULL CHECK (base IN ('observations', 'audit_logs')),
  month      date NOT NULL,
  first_id   bigint,
  last_id    bigint,
  rows       bigint NOT NULL,
  dropped_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (base, month)
);
CREATE TRIGGER partition_drops_no_update_delete BEFORE UPDATE OR DELETE ON partition_drops
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();

-- The audit record of a maintenance step, written in the step's transaction, by the system (as
-- kernel/audit-writer.ts writes a job's records: no user, ip 'system', the job's request id). The
-- actions are in packages/contracts (AuditActions); a test checks these are among them.
CREATE FUNCTION rpm_partition_audit(p_action text, p_resource text, p_details jsonb, p_request_id text) RETURNS void
  LANGUAGE sql SET search_path = pg_catalog, public AS $$
  INSERT INTO public.audit_logs (user_id, ip_address, action, resource_type, resource_id, details, outcome, request_id)
  VALUES (NULL, 'system', p_action, 'partition', p_resource, p_details, 'success', p_request_id)
$$;
REVOKE EXECUTE ON FUNCTION rpm_partition_audit(text, text, jsonb, text) FROM PUBLIC;

-- Creates the month tables of both parents from this month to `months_ahead` months ahead (0..24).
-- Returns the tables it created (and the months it left in the default).
CREATE FUNCTION rpm_partitions_ensure(months_ahead integer) RETURNS TABLE (partition_name text, outcome text)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET lock_timeout = '10s' AS $$
DECLARE
  base text;
  m date;
  result text;
BEGIN
  IF months_ahead IS NULL OR months_ahead NOT BETWEEN 0 AND 24 THEN
    RAISE EXCEPTION 'months ahead must be between 0 and 24' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- One maintenance step at a time across instances (any fixed number, the same everywhere).
  PERFORM pg_advisory_xact_lock(727010);
  FOREACH base IN ARRAY ARRAY['observations', 'audit_logs'] LOOP
    FOR i IN 0..months_ahead LOOP
      m := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => i))::date;
      result := rpm_partition_create(base, m);
      IF result <> 'exists' THEN
        partition_name := rpm_partition_name(base, m);
        outcome := result;
        RETURN NEXT;
      END IF;
    END LOOP;
  END LOOP;
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_partitions_ensure(integer) FROM PUBLIC;

-- The month tables of a parent, with their month (from the name) and upper bound.
CREATE FUNCTION rpm_partition_months(base text) RETURNS TABLE (partition_name text, month date, upper_bound timestamptz)
  LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
  SELECT c.relname::text, to_date(substring(c.relname FROM '_y(\d{4}m\d{2})$'), 'YYYY"m"MM'),
         rpm_month_start((to_date(substring(c.relname FROM '_y(\d{4}m\d{2})$'), 'YYYY"m"MM') + interval '1 month')::date)
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE i.inhparent = format('public.%I', base)::regclass
     AND n.nspname = 'partitions'
     AND c.relname ~ '_y\d{4}m\d{2}$'
   ORDER BY 2
$$;

-- Detaches and drops one month table, writing its id range in partition_drops and an audit record
-- in the same transaction. Callers check that the month may go.
CREATE FUNCTION rpm_partition_drop(base text, month date, p_request_id text) RETURNS bigint
  LANGUAGE plpgsql SET search_path = pg_catalog, public SET lock_timeout = '10s' AS $$
DECLARE
  part text := rpm_partition_name(base, month);
  first_id bigint;
  last_id bigint;
  n bigint;
BEGIN
  IF to_regclass(format('partitions.%I', part)) IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT min(id), max(id), count(*) FROM partitions.%I', part) INTO first_id, last_id, n;
  IF base = 'observations' THEN
    -- What the row triggers of a DELETE would have done: no reference to a reading that is gone,
    -- and the per-patient counts without it.
    EXECUTE format('DELETE FROM public.alert_readings WHERE vital_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('UPDATE public.alerts SET last_vital_id = NULL WHERE last_vital_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('DELETE FROM public.observation_identifiers WHERE observation_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('UPDATE public.patient_observation_counts c SET n = greatest(0, c.n - d.k)
                      FROM (SELECT patient_id, kind, count(*) AS k FROM partitions.%I GROUP BY patient_id, kind) d
                     WHERE c.patient_id = d.patient_id AND c.kind = d.kind', part);
  END IF;
  EXECUTE format('ALTER TABLE public.%I DETACH PARTITION partitions.%I', base, part);
  EXECUTE format('DROP TABLE partitions.%I', part);
  INSERT INTO public.partition_drops (base, month, first_id, last_id, rows) VALUES (base, month, first_id, last_id, n);
  PERFORM rpm_partition_audit('partition.drop', base || '/' || to_char(month, 'YYYY-MM'),
    jsonb_build_object('table', base, 'month', to_char(month, 'YYYY-MM'), 'rows', n, 'first_id', first_id, 'last_id', last_id),
    p_request_id);
  RETURN n;
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_partition_drop(text, date, text) FROM PUBLIC;

-- Drops the audit month table of `p_month`, which must be entirely older than six years: HIPAA
-- asks that documentation required by the Security Rule, audit records among it, be retained six
-- years from its creation (45 CFR 164.316(b)(2)(i)). The six years are fixed here, not a
-- parameter, so that no caller can shorten them (AUDIT_MIN_RETENTION_YEARS in packages/contracts
-- says the same, and a test holds them together). Raises RPM02 for a month younger than that.
CREATE FUNCTION rpm_audit_drop_month(p_month date, p_request_id text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  upper_bound timestamptz := rpm_month_start((date_trunc('month', p_month) + interval '1 month')::date);
BEGIN
  IF p_month IS NULL OR upper_bound > now() - interval '6 years' THEN
    RAISE EXCEPTION 'audit records of % are younger than six years and are kept', to_char(p_month, 'YYYY-MM')
      USING ERRCODE = 'RPM02';
  END IF;
  -- One maintenance step at a time across instances (any fixed number, the same everywhere).
  PERFORM pg_advisory_xact_lock(727010);
  RETURN rpm_partition_drop('audit_logs', date_trunc('month', p_month)::date, p_request_id);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_audit_drop_month(date, text) FROM PUBLIC;

-- Whether every organization's retention has passed for all of the month (none: none has).
CREATE FUNCTION rpm_observation_month_expired(p_month date) RETURNS boolean
  LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
  SELECT coalesce(bool_and(o.observation_retention_months IS NOT NULL
           AND rpm_month_start((date_trunc('month', p_month) + interval '1 month')::date)
               <= now() - make_interval(months => o.observation_retention_months)), false)
    FROM public.organizations o
$$;

-- Drops the observation month table of `p_month` when every organization's retention has passed
-- for it; raises RPM02 otherwise.
CREATE FUNCTION rpm_observations_drop_month(p_month date, p_request_id text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  IF p_month IS NULL OR NOT rpm_observation_month_expired(p_month) THEN
    RAISE EXCEPTION 'readings of % are inside an organization''s retention and are kept', to_char(p_month, 'YYYY-MM')
      USING ERRCODE = 'RPM02';
  END IF;
  -- One maintenance step at a time across instances (any fixed number, the same everywhere).
  PERFORM pg_advisory_xact_lock(727010);
  RETURN rpm_partition_drop('observations', date_trunc('month', p_month)::date, p_request_id);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_observations_drop_month(date, text) FROM PUBLIC;

-- The observation retention of one run: month tables every organization lets go are dropped;
-- then each organization's readings older than its retention are deleted (audited per
-- organization with the number deleted). Returns what it did.
CREATE FUNCTION rpm_observations_expire(p_request_id text) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  m record;
  org record;
  n bigint;
  dropped jsonb := '[]';
  deleted jsonb := '[]';
BEGIN
  -- One maintenance step at a time across instances (any fixed number, the same everywhere).
  PERFORM pg_advisory_xact_lock(727010);
  FOR m IN SELECT * FROM rpm_partition_months('observations') LOOP
    IF rpm_observation_month_expired(m.month) THEN
      n := rpm_partition_drop('observations', m.month, p_request_id);
      dropped := dropped || jsonb_build_object('month', to_char(m.month, 'YYYY-MM'), 'rows', n);
    END IF;
  END LOOP;
  FOR org IN SELECT id, observation_retention_months FROM public.organizations
              WHERE observation_retention_months IS NOT NULL ORDER BY id LOOP
    DELETE FROM public.observations o
     USING public.patients p
     WHERE p.id = o.patient_id AND p.organization_id = org.id
       AND o.created_at < now() - make_interval(months => org.observation_retention_months);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN
      PERFORM rpm_partition_audit('observation.retention', 'organization/' || org.id,
        jsonb_build_object('organization_id', org.id, 'deleted', n, 'retention_months', org.observation_retention_months),
        p_request_id);
      deleted := deleted || jsonb_build_object('organization_id', org.id, 'deleted', n);
    END IF;
  END LOOP;
  RETURN jsonb_build_object('dropped', dropped, 'deleted', deleted);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_observations_expire(text) FROM PUBLIC;

-- Same function as 0980, with the partition drops read-only and the maintenance functions above
-- callable. The month tables are in schema partitions, where the role has no USAGE: it reaches
-- them only through their parents.
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
      WHEN t.nspname = 'public' AND t.relname IN ('audit_chain_sha256_legacy', 'schema_migrations', 'partition_drops') THEN 'SELECT'
      WHEN t.nspname = 'public' AND t.relname IN ('ingestion_sources', 'billing_month_reopenings') THEN 'SELECT'
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
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_reopen_billing_month(date, integer, text), '
                 'rpm_mark_claims_sent(date, integer) TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_partitions_ensure(integer), rpm_audit_drop_month(date, text), '
                 'rpm_observations_drop_month(date, text), rpm_observations_expire(text) TO %I', r);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, identity TO %I', r);
  -- The DB inspector reads with SET LOCAL ROLE rpm_inspector, and keeps that role's column grants
  -- up to date through a function that runs with its owner's rights.
  EXECUTE format('GRANT rpm_inspector TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_inspector_sync_grants() TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION audit_unsealed_take_sealed(bigint[]) TO %I', r);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_grant_runtime_role(name) FROM PUBLIC;

-- The maintenance queue (modules/partitions): one job at a time, whatever the number of instances.
SELECT pgboss.create_queue('partitions-maintenance', '{"policy":"singleton","retryLimit":2,"expireInSeconds":600}');
