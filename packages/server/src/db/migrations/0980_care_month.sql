-- The care team's month (issue 26): time that says how it was measured and with whom, when a
-- patient was active for billing, months that an admin can reopen until the claims are sent, the
-- patient fields an auditor asks for, outreach to patients who stopped measuring, and how the
-- timer starts.

-- Tracking time: what was done (activity), the live contact if there was one (the 2026 management
-- codes need one), the minutes a timer measured, and why an entry claims more than that.
ALTER TABLE tracking_sessions
  ADD COLUMN activity text CHECK (activity IN ('review_readings', 'phone_call', 'video_visit', 'care_plan_update',
                                               'medication_review', 'education', 'care_coordination', 'other')),
  ADD COLUMN contact_type text CHECK (contact_type IN ('phone', 'video', 'in_person')),
  ADD COLUMN measured_minutes integer CHECK (measured_minutes BETWEEN 0 AND 1440),
  ADD COLUMN adjustment_reason text CHECK (length(adjustment_reason) <= 1000),
  ADD CONSTRAINT tracking_sessions_contact_is_interactive CHECK (contact_type IS NULL OR interactive),
  -- Lowering measured minutes needs no word; claiming more than the timer saw needs a reason.
  ADD CONSTRAINT tracking_sessions_raise_has_reason
    CHECK (measured_minutes IS NULL OR duration_minutes <= measured_minutes OR btrim(adjustment_reason) <> '');

-- When a patient was active for billing: enrolled and with the status Active (or none, as before
-- the status list). Paused, discharged and declined days earn no code. Kept by a trigger on every
-- change of enrollment, so history is not lost when the status changes again.
CREATE TABLE patient_active_spans (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id  integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  -- '-infinity' for a patient active since created: readings from before creation reach a patient
  -- only through a device assignment, which already stops at creation (0954).
  active_from timestamptz NOT NULL,
  active_to   timestamptz,
  CHECK (active_to IS NULL OR active_to >= active_from)
);
CREATE UNIQUE INDEX patient_active_spans_open_idx ON patient_active_spans (patient_id) WHERE active_to IS NULL;
CREATE INDEX patient_active_spans_patient_idx ON patient_active_spans (patient_id, active_from);

-- History before this migration is unknown: a patient active today is taken as active since
-- created; one who is not, as never active (their earlier open months stop earning codes; closed
-- months keep their snapshot).
INSERT INTO patient_active_spans (patient_id, active_from)
SELECT id, '-infinity' FROM patients
 WHERE enrolled_rpm AND coalesce(enrollment_status, 'Active') = 'Active';

CREATE FUNCTION patients_track_active() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_active boolean := NEW.enrolled_rpm AND coalesce(NEW.enrollment_status, 'Active') = 'Active';
  was_active boolean := TG_OP = 'UPDATE' AND OLD.enrolled_rpm AND coalesce(OLD.enrollment_status, 'Active') = 'Active';
BEGIN
  IF now_active AND NOT was_active THEN
    INSERT INTO patient_active_spans (patient_id, active_from)
    VALUES (NEW.id, CASE TG_OP WHEN 'INSERT' THEN '-infinity'::timestamptz ELSE now() END);
  ELSIF was_active AND NOT now_active THEN
    UPDATE patient_active_spans SET active_to = now() WHERE patient_id = NEW.id AND active_to IS NULL;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER patients_track_active_insert AFTER INSERT ON patients
  FOR EACH ROW EXECUTE FUNCTION patients_track_active();
CREATE TRIGGER patients_track_active_update AFTER UPDATE OF enrolled_rpm, enrollment_status ON patients
  FOR EACH ROW EXECUTE FUNCTION patients_track_active();

-- Whether the patient was active at an instant (a reading's time).
CREATE FUNCTION rpm_patient_active_at(p integer, t timestamptz) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM patient_active_spans s
                  WHERE s.patient_id = p AND s.active_from <= t AND (s.active_to IS NULL OR s.active_to > t))
$$;

-- Whether the patient was active at some time of a calendar day in a time zone (a tracking entry's date).
CREATE FUNCTION rpm_patient_active_on(p integer, day date, time_zone text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM patient_active_spans s
                  WHERE s.patient_id = p
                    AND s.active_from < ((day + 1)::timestamp AT TIME ZONE time_zone)
                    AND (s.active_to IS NULL OR s.active_to > (day::timestamp AT TIME ZONE time_zone)))
$$;

-- A closed month can be reopened by an admin, with a reason, until its claims are sent. Both are
-- functions that run with the owner's rights: the runtime role still cannot change or delete a
-- close (0954), only take these two steps, which keep their own record.
ALTER TABLE billing_closed_months
  ADD COLUMN claims_sent_at timestamptz,
  ADD COLUMN claims_sent_by integer REFERENCES users (id);

CREATE TABLE billing_month_reopenings (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  month       date NOT NULL,
  closed_at   timestamptz NOT NULL,
  closed_by   integer REFERENCES users (id),
  reopened_at timestamptz NOT NULL DEFAULT now(),
  reopened_by integer NOT NULL REFERENCES users (id),
  reason      text NOT NULL CHECK (btrim(reason) <> '' AND length(reason) <= 1000)
);
CREATE INDEX billing_month_reopenings_month_idx ON billing_month_reopenings (month, reopened_at);

-- 'reopened', 'not_closed' or 'claims_sent'.
CREATE FUNCTION rpm_reopen_billing_month(p_month date, p_user integer, p_reason text) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  c billing_closed_months%ROWTYPE;
BEGIN
  SELECT * INTO c FROM billing_closed_months WHERE month = p_month FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'not_closed';
  END IF;
  IF c.claims_sent_at IS NOT NULL THEN
    RETURN 'claims_sent';
  END IF;
  INSERT INTO billing_month_reopenings (month, closed_at, closed_by, reopened_by, reason)
  VALUES (p_month, c.closed_at, c.closed_by, p_user, p_reason);
  DELETE FROM billing_month_snapshots WHERE month = p_month;
  DELETE FROM billing_closed_months WHERE month = p_month;
  RETURN 'reopened';
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_reopen_billing_month(date, integer, text) FROM PUBLIC;

-- 'sent', 'not_closed' or 'already_sent'.
CREATE FUNCTION rpm_mark_claims_sent(p_month date, p_user integer) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  c billing_closed_months%ROWTYPE;
BEGIN
  SELECT * INTO c FROM billing_closed_months WHERE month = p_month FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'not_closed';
  END IF;
  IF c.claims_sent_at IS NOT NULL THEN
    RETURN 'already_sent';
  END IF;
  UPDATE billing_closed_months SET claims_sent_at = now(), claims_sent_by = p_user WHERE month = p_month;
  RETURN 'sent';
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_mark_claims_sent(date, integer) FROM PUBLIC;

-- What an auditor asks of a claim: who ordered the monitoring, when the patient consented, and
-- the diagnoses (ICD-10-CM codes, written with their dot: I10, E11.9, I50.22).
CREATE FUNCTION rpm_icd10_codes_valid(codes text[]) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(bool_and(c ~ '^[A-TV-Z][0-9][0-9AB](\.[0-9A-TV-Z]{1,4})?$'), true) FROM unnest(codes) AS c
$$;
ALTER TABLE patients
  ADD COLUMN ordering_provider_id integer REFERENCES users (id),
  ADD COLUMN consent_date date,
  ADD COLUMN diagnosis_codes text[] NOT NULL DEFAULT '{}'
    CHECK (cardinality(diagnosis_codes) <= 12 AND rpm_icd10_codes_valid(diagnosis_codes));

-- Outreach to a patient (mostly one who stopped measuring), kept on the patient's record.
CREATE TABLE patient_outreach (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  user_id    integer REFERENCES users (id),
  outcome    text NOT NULL CHECK (outcome IN ('called', 'left_message', 'device_problem', 'shipped_replacement')),
  notes      text CHECK (length(notes) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX patient_outreach_patient_idx ON patient_outreach (patient_id, created_at DESC, id DESC);

-- How the care timer starts on a patient's page: when a provider opens the record, or on a click.
ALTER TABLE organizations
  ADD COLUMN timer_start text NOT NULL DEFAULT 'open' CHECK (timer_start IN ('open', 'click'));

-- Same function as 0955, with the reopenings read-only (the function above writes them) and the
-- two billing functions callable.
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
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, identity TO %I', r);
  -- The DB inspector reads with SET LOCAL ROLE rpm_inspector, and keeps that role's column grants
  -- up to date through a function that runs with its owner's rights.
  EXECUTE format('GRANT rpm_inspector TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION rpm_inspector_sync_grants() TO %I', r);
  EXECUTE format('GRANT EXECUTE ON FUNCTION audit_unsealed_take_sealed(bigint[]) TO %I', r);
END;
$$;
REVOKE EXECUTE ON FUNCTION rpm_grant_runtime_role(name) FROM PUBLIC;
