-- Closed means closed, in the database. A month submitted for billing keeps the answer it was
-- submitted with (a snapshot taken when it is closed), and the portal's runtime role can no longer
-- change what that answer was built from: tracking time, readings and enrollment dated in it, or
-- the close itself. The migration owner (and a superuser) still may, to repair data by hand.
--
-- Every refusal raises SQLSTATE RPM01 (CLOSED_MONTH_SQLSTATE in contracts), which the server
-- answers with the closed-month error instead of a 500.

-- What a month's report, CSV and evidence said when it was closed, one row per patient, for every
-- patient (the enrolled ones make the report; the others' pages still show their month). No
-- foreign key to patients: a claim that was submitted stays on record even if the patient goes.
CREATE TABLE billing_month_snapshots (
  month           date    NOT NULL REFERENCES billing_closed_months (month),
  patient_id      integer NOT NULL,
  organization_id integer NOT NULL,
  enrolled        boolean NOT NULL,
  -- The report's order (last name, first name, id) at closing time.
  position        integer NOT NULL,
  -- The report row (BillingRow), the CSV's claim fields, and the evidence (time zone, days with
  -- readings, tracking entries), in the API's shapes.
  line            jsonb   NOT NULL,
  claim           jsonb   NOT NULL,
  evidence        jsonb   NOT NULL,
  PRIMARY KEY (month, patient_id)
);
CREATE INDEX billing_month_snapshots_report_idx ON billing_month_snapshots (month, position);

-- The owner (and a superuser, who is a member of every role) may repair data; the runtime role
-- owns nothing (migration 0741), so it is not a member of the table's owner.
CREATE FUNCTION rpm_may_change_closed_months(relation oid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT pg_has_role(current_user, c.relowner, 'MEMBER') FROM pg_class c WHERE c.oid = relation
$$;

-- Whether the instant falls, in that time zone, in a closed month.
CREATE FUNCTION rpm_closed_month_at(t timestamptz, time_zone text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM billing_closed_months c WHERE c.month = date_trunc('month', t AT TIME ZONE time_zone)::date)
$$;

CREATE FUNCTION rpm_refuse_closed_month(what text, month date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% dated in %, a month closed for billing', what, to_char(month, 'YYYY-MM')
    USING ERRCODE = 'RPM01';
END;
$$;

-- The close and its snapshot are never changed or taken back by the portal.
CREATE FUNCTION billing_closed_months_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT rpm_may_change_closed_months(TG_RELID) THEN
    PERFORM rpm_refuse_closed_month(TG_TABLE_NAME || ' ' || lower(TG_OP), OLD.month);
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
CREATE TRIGGER billing_closed_months_keep BEFORE UPDATE OR DELETE ON billing_closed_months
  FOR EACH ROW EXECUTE FUNCTION billing_closed_months_keep();
CREATE TRIGGER billing_month_snapshots_keep BEFORE UPDATE OR DELETE ON billing_month_snapshots
  FOR EACH ROW EXECUTE FUNCTION billing_closed_months_keep();

-- A snapshot is written with its close, in the same transaction, and never added to later.
CREATE FUNCTION billing_month_snapshots_with_close() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT rpm_may_change_closed_months(TG_RELID) AND NOT EXISTS (
    SELECT 1 FROM billing_closed_months c
     WHERE c.month = NEW.month AND c.xmin::text::bigint = txid_current() % 4294967296
  ) THEN
    PERFORM rpm_refuse_closed_month('a snapshot line added after the close', NEW.month);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER billing_month_snapshots_with_close BEFORE INSERT ON billing_month_snapshots
  FOR EACH ROW EXECUTE FUNCTION billing_month_snapshots_with_close();

-- Tracking entries carry their day already (the organization's day, chosen when logged); a few
-- rows per request, so a row trigger is cheap.
CREATE FUNCTION tracking_sessions_keep_closed_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  closed date;
BEGIN
  IF rpm_may_change_closed_months(TG_RELID) THEN
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  SELECT c.month INTO closed FROM billing_closed_months c
   WHERE (TG_OP <> 'INSERT' AND c.month = date_trunc('month', OLD.date)::date)
      OR (TG_OP <> 'DELETE' AND c.month = date_trunc('month', NEW.date)::date)
   LIMIT 1;
  IF FOUND THEN
    PERFORM rpm_refuse_closed_month('tracking time', closed);
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
CREATE TRIGGER tracking_sessions_keep_closed_months BEFORE INSERT OR UPDATE OR DELETE ON tracking_sessions
  FOR EACH ROW EXECUTE FUNCTION tracking_sessions_keep_closed_months();

-- Readings arrive in bulk (a webhook batch, a FHIR Bundle, an assignment moving a device's
-- waiting readings), so the check is one statement over the transition tables, not a trigger per
-- row. Rows after the last closed month (plus a day for any time zone) are passed over without
-- looking up their organization, which is every reading of the normal, current ingestion.
CREATE FUNCTION vitals_keep_closed_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  horizon timestamptz;
  closed  date;
BEGIN
  IF rpm_may_change_closed_months(TG_RELID) THEN
    RETURN NULL;
  END IF;
  SELECT (max(month) + interval '1 month 1 day')::timestamptz INTO horizon FROM billing_closed_months;
  IF horizon IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT c.month INTO closed
      FROM new_rows r
      JOIN patients p ON p.id = r.patient_id
      JOIN organizations o ON o.id = p.organization_id
      JOIN billing_closed_months c ON c.month = date_trunc('month', r.created_at AT TIME ZONE o.time_zone)::date
     WHERE r.created_at < horizon
     LIMIT 1;
  END IF;
  IF closed IS NULL AND TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT c.month INTO closed
      FROM old_rows r
      JOIN patients p ON p.id = r.patient_id
      JOIN organizations o ON o.id = p.organization_id
      JOIN billing_closed_months c ON c.month = date_trunc('month', r.created_at AT TIME ZONE o.time_zone)::date
     WHERE r.created_at < horizon
     LIMIT 1;
  END IF;
  IF closed IS NOT NULL THEN
    PERFORM rpm_refuse_closed_month('a reading', closed);
  END IF;
  RETURN NULL;
END;
$$;
-- A trigger with transition tables serves one event only.
CREATE TRIGGER vitals_keep_closed_months_insert AFTER INSERT ON vitals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vitals_keep_closed_months();
CREATE TRIGGER vitals_keep_closed_months_update AFTER UPDATE ON vitals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vitals_keep_closed_months();
CREATE TRIGGER vitals_keep_closed_months_delete AFTER DELETE ON vitals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION vitals_keep_closed_months();

-- Enrollment is a patient's current state (enrolled_rpm, enrollment_status, the organization),
-- with no history or effective date: a change is dated when it is made, in the organization's
-- time zone. Months can only be closed once over, so such a change falls in a closed month only
-- in the hours after a close while the organization's own day is still the closed month's last
-- (a close goes by UTC's calendar). What a change could do to an earlier closed month (take a
-- line out of its CSV) the snapshot already prevents.
CREATE FUNCTION patients_keep_closed_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  closed date;
BEGIN
  IF rpm_may_change_closed_months(TG_RELID) THEN
    RETURN NEW;
  END IF;
  SELECT c.month INTO closed
    FROM organizations o
    JOIN billing_closed_months c ON c.month = date_trunc('month', now() AT TIME ZONE o.time_zone)::date
   WHERE o.id IN (NEW.organization_id, CASE TG_OP WHEN 'UPDATE' THEN OLD.organization_id END)
   LIMIT 1;
  IF FOUND THEN
    PERFORM rpm_refuse_closed_month('an enrollment change', closed);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER patients_keep_closed_months_update BEFORE UPDATE OF enrolled_rpm, enrollment_status, organization_id ON patients
  FOR EACH ROW
  WHEN (OLD.enrolled_rpm IS DISTINCT FROM NEW.enrolled_rpm OR OLD.enrollment_status IS DISTINCT FROM NEW.enrollment_status
        OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION patients_keep_closed_months();
CREATE TRIGGER patients_keep_closed_months_insert BEFORE INSERT ON patients
  FOR EACH ROW WHEN (NEW.enrolled_rpm) EXECUTE FUNCTION patients_keep_closed_months();

-- An assignment reaches back over the device's unassigned gap, but no further than the patient's
-- creation (readings from before could not be theirs: a device sold on, a cuff tested in the
-- warehouse; the schema records no enrollment date, creation is the earliest a patient can have
-- been enrolled), and never into a closed month. Readings sent through another organization's
-- source are not this patient's organization's to take. Those stay unmatched, where an admin can
-- still attach them on purpose (POST /api/unmatched-readings/attach).
CREATE OR REPLACE FUNCTION devices_track_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous_end timestamptz;
  since        timestamptz;
  patient      record;
  attachable   bigint[];
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.patient_id IS NOT NULL THEN
    UPDATE device_assignments SET assigned_to = now() WHERE device_id = NEW.id AND assigned_to IS NULL;
  END IF;
  IF NEW.patient_id IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT p.created_at, p.organization_id, o.time_zone INTO patient
    FROM patients p JOIN organizations o ON o.id = p.organization_id WHERE p.id = NEW.patient_id;
  SELECT max(assigned_to) INTO previous_end FROM device_assignments WHERE device_id = NEW.id;
  SELECT array_agg(u.id), LEAST(now(), min(u.measured_at)) INTO attachable, since
    FROM unmatched_readings u
    LEFT JOIN ingestion_sources s ON s.id = u.source_id
   WHERE lower(btrim(u.device_identifier)) = lower(btrim(NEW.device_id))
     AND (previous_end IS NULL OR u.measured_at >= previous_end)
     AND u.measured_at >= patient.created_at
     -- No source (typed in, or its source deleted) or a source of the patient's organization: a
     -- source without one (made before sources had one) proves nothing, so an admin attaches those.
     AND (u.source_id IS NULL OR s.organization_id = patient.organization_id)
     AND NOT rpm_closed_month_at(u.measured_at, patient.time_zone);
  since := COALESCE(since, now());
  INSERT INTO device_assignments (device_id, patient_id, assigned_from) VALUES (NEW.id, NEW.patient_id, since);
  WITH moved AS (
    DELETE FROM unmatched_readings u
     WHERE u.id = ANY (attachable) AND (u.systolic IS NOT NULL OR u.kind = 'heart_rate')
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
