-- Measurements as data: one store for every kind of observation (blood pressure, heart rate,
-- weight, glucose, oxygen saturation, temperature, ...). The kinds themselves are defined once in
-- the contracts' measurement registry; the database keeps the shape every kind shares and never
-- lists the kinds, so adding one needs no migration.
--
-- `vitals` becomes `observations` in place: every row keeps its id (alerts and audit records
-- refer to them), and the sequence goes on from where it was.

-- Rewriting rows below must not count as changes to readings (closed months, per-patient counts).
ALTER TABLE vitals DISABLE TRIGGER USER;
ALTER TABLE unmatched_readings DISABLE TRIGGER USER;

ALTER TABLE vitals RENAME TO observations;
ALTER SEQUENCE vitals_id_seq RENAME TO observations_id_seq;
ALTER INDEX vitals_pkey RENAME TO observations_pkey;
ALTER INDEX vitals_patient_time_idx RENAME TO observations_patient_time_idx;
ALTER INDEX vitals_device_reading_key RENAME TO observations_device_reading_key;
ALTER INDEX vitals_device_day_idx RENAME TO observations_device_day_idx;
ALTER TABLE observations RENAME CONSTRAINT vitals_device_id_fkey TO observations_device_id_fkey;
ALTER TABLE observations RENAME CONSTRAINT vitals_patient_id_fkey TO observations_patient_id_fkey;
ALTER TABLE observations RENAME CONSTRAINT vitals_source_id_fkey TO observations_source_id_fkey;
ALTER TABLE observations RENAME CONSTRAINT vitals_source_check TO observations_source_check;
ALTER TRIGGER vitals_count_insert ON observations RENAME TO observations_count_insert;
ALTER TRIGGER vitals_count_delete ON observations RENAME TO observations_count_delete;
ALTER TRIGGER vitals_count_update ON observations RENAME TO observations_count_update;
ALTER TRIGGER vitals_count_truncate ON observations RENAME TO observations_count_truncate;
ALTER TRIGGER vitals_keep_closed_months_insert ON observations RENAME TO observations_keep_closed_months_insert;
ALTER TRIGGER vitals_keep_closed_months_update ON observations RENAME TO observations_keep_closed_months_update;
ALTER TRIGGER vitals_keep_closed_months_delete ON observations RENAME TO observations_keep_closed_months_delete;
ALTER FUNCTION vitals_keep_closed_months() RENAME TO observations_keep_closed_months;

-- The values: one number per component (its code in the registry), in the kind's UCUM unit
-- (`unit` names the unit of the kind's primary component, as the FHIR valueQuantity does).
ALTER TABLE observations ADD COLUMN components jsonb, ADD COLUMN unit text;
UPDATE observations
   SET components = jsonb_strip_nulls(jsonb_build_object('systolic', systolic, 'diastolic', diastolic, 'pulse', pulse)),
       unit = CASE kind WHEN 'blood_pressure' THEN 'mm[Hg]' ELSE '/min' END;
ALTER TABLE observations
  DROP CONSTRAINT vitals_kind_check,
  DROP CONSTRAINT vitals_kind_values,
  DROP COLUMN systolic,
  DROP COLUMN diastolic,
  DROP COLUMN pulse,
  ALTER COLUMN components SET NOT NULL,
  ALTER COLUMN unit SET NOT NULL,
  ALTER COLUMN kind DROP DEFAULT,
  ADD CONSTRAINT observations_kind_name CHECK (kind ~ '^[a-z][a-z0-9_]{0,39}$'),
  ADD CONSTRAINT observations_unit_check CHECK (length(unit) BETWEEN 1 AND 20),
  ADD CONSTRAINT observations_components_object CHECK (jsonb_typeof(components) = 'object' AND components <> '{}'),
  -- Blood pressure is always a pair (the spec's vitals answer relies on it).
  ADD CONSTRAINT observations_blood_pressure_pair CHECK (
    kind <> 'blood_pressure' OR (components ? 'systolic' AND components ? 'diastolic'));
-- The spec's vitals answer (blood pressure and pulse) and the blood-pressure rules read these
-- columns; they follow the components, so there is one store and nothing to keep in step.
ALTER TABLE observations
  ADD COLUMN systolic smallint GENERATED ALWAYS AS (round((components ->> 'systolic')::numeric)::smallint) STORED
    CHECK (systolic BETWEEN 40 AND 300),
  ADD COLUMN diastolic smallint GENERATED ALWAYS AS (round((components ->> 'diastolic')::numeric)::smallint) STORED
    CHECK (diastolic BETWEEN 20 AND 200),
  ADD COLUMN pulse smallint GENERATED ALWAYS AS (round((components ->> 'pulse')::numeric)::smallint) STORED
    CHECK (pulse BETWEEN 20 AND 300);

-- "The latest page of one kind for a patient" is a range scan, as the vitals page is.
CREATE INDEX observations_patient_kind_time_idx ON observations (patient_id, kind, created_at DESC, id DESC);

-- Counts per patient and kind: the spec's vitals total counts blood pressure and heart rate only,
-- the observations list counts one kind.
ALTER TABLE patient_vital_counts RENAME TO patient_observation_counts;
ALTER TABLE patient_observation_counts DROP CONSTRAINT patient_vital_counts_pkey, ADD COLUMN kind text;
DELETE FROM patient_observation_counts;
INSERT INTO patient_observation_counts (patient_id, kind, n)
SELECT patient_id, kind, count(*) FROM observations GROUP BY patient_id, kind;
ALTER TABLE patient_observation_counts
  ALTER COLUMN kind SET NOT NULL,
  ADD PRIMARY KEY (patient_id, kind);

CREATE OR REPLACE FUNCTION patient_vital_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Key order: concurrent statements touching the same patients lock rows in one order.
  INSERT INTO patient_observation_counts AS c (patient_id, kind, n)
  SELECT patient_id, kind, count(*) FROM inserted GROUP BY patient_id, kind ORDER BY patient_id, kind
  ON CONFLICT (patient_id, kind) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION patient_vital_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE patient_observation_counts c SET n = greatest(0, c.n - d.k)
    FROM (SELECT patient_id, kind, count(*) AS k FROM deleted GROUP BY patient_id, kind) d
   WHERE c.patient_id = d.patient_id AND c.kind = d.kind;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION patient_vital_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE patient_observation_counts c SET n = greatest(0, c.n - d.k)
    FROM (SELECT patient_id, kind, count(*) AS k FROM deleted GROUP BY patient_id, kind) d
   WHERE c.patient_id = d.patient_id AND c.kind = d.kind;
  INSERT INTO patient_observation_counts AS c (patient_id, kind, n)
  SELECT patient_id, kind, count(*) FROM inserted GROUP BY patient_id, kind ORDER BY patient_id, kind
  ON CONFLICT (patient_id, kind) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION patient_vital_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM patient_observation_counts;
  RETURN NULL;
END;
$$;
ALTER FUNCTION patient_vital_counts_insert() RENAME TO patient_observation_counts_insert;
ALTER FUNCTION patient_vital_counts_delete() RENAME TO patient_observation_counts_delete;
ALTER FUNCTION patient_vital_counts_update() RENAME TO patient_observation_counts_update;
ALTER FUNCTION patient_vital_counts_truncate() RENAME TO patient_observation_counts_truncate;

-- Unmatched readings keep the same shape, and also what the portal does not know: a metric with
-- no kind in the registry waits here under kind 'unknown' with the vendor's own name and values.
ALTER TABLE unmatched_readings ADD COLUMN components jsonb, ADD COLUMN unit text, ADD COLUMN metric text
  CHECK (length(metric) BETWEEN 1 AND 100);
UPDATE unmatched_readings
   SET components = jsonb_strip_nulls(jsonb_build_object('systolic', systolic, 'diastolic', diastolic, 'pulse', pulse)),
       unit = CASE WHEN systolic IS NULL THEN '/min' ELSE 'mm[Hg]' END;
ALTER TABLE unmatched_readings
  DROP CONSTRAINT unmatched_readings_check,
  DROP CONSTRAINT unmatched_readings_kind_check,
  DROP CONSTRAINT unmatched_readings_kind_values,
  DROP COLUMN systolic,
  DROP COLUMN diastolic,
  DROP COLUMN pulse,
  ALTER COLUMN components SET NOT NULL,
  ALTER COLUMN unit SET NOT NULL,
  ALTER COLUMN kind DROP DEFAULT,
  ADD CONSTRAINT unmatched_readings_kind_name CHECK (kind ~ '^[a-z][a-z0-9_]{0,39}$'),
  ADD CONSTRAINT unmatched_readings_unit_check CHECK (length(unit) BETWEEN 1 AND 20),
  ADD CONSTRAINT unmatched_readings_components_object CHECK (jsonb_typeof(components) = 'object'),
  ADD CONSTRAINT unmatched_readings_unknown_metric CHECK ((kind = 'unknown') = (metric IS NOT NULL));
ALTER TABLE unmatched_readings
  ADD COLUMN systolic smallint GENERATED ALWAYS AS (round((components ->> 'systolic')::numeric)::smallint) STORED,
  ADD COLUMN diastolic smallint GENERATED ALWAYS AS (round((components ->> 'diastolic')::numeric)::smallint) STORED,
  ADD COLUMN pulse smallint GENERATED ALWAYS AS (round((components ->> 'pulse')::numeric)::smallint) STORED;

ALTER TABLE observations ENABLE TRIGGER USER;
ALTER TABLE unmatched_readings ENABLE TRIGGER USER;

-- Assigning a device attaches its waiting readings of every known kind. A pulse still waiting
-- for its blood pressure (kind blood_pressure without the pair) and a metric the portal does not
-- know stay where they are.
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
     WHERE u.id = ANY (attachable)
       AND u.kind <> 'unknown'
       AND (u.kind <> 'blood_pressure' OR u.components ? 'systolic')
    RETURNING u.*
  )
  INSERT INTO observations (patient_id, device_id, source, created_at, measurement_index, kind, components, unit,
                            irregular_heartbeat, source_id, received_at)
  SELECT NEW.patient_id, NEW.id, NEW.device_id, m.measured_at, m.measurement_index, m.kind, m.components, m.unit,
         m.irregular_heartbeat, m.source_id, m.received_at
    FROM moved m
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;

-- Programs: a patient is enrolled in one or more (a heart-failure patient with diabetes is in
-- both). A program chooses the kinds its patients' pages show first and, later, its alert rules.
-- The built-in programs are rows like any an admin adds; their definitions live in the contracts
-- (PROGRAMS) and a test keeps these rows equal to them.
CREATE TABLE programs (
  id         text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9_]{0,39}$'),
  label      text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 100),
  kinds      text[] NOT NULL DEFAULT '{}',
  built_in   boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO programs (id, label, kinds, built_in) VALUES
  ('hypertension', 'Hypertension', '{blood_pressure,heart_rate}', true),
  ('heart_failure', 'Heart failure', '{weight,blood_pressure,heart_rate}', true),
  ('diabetes', 'Diabetes', '{glucose,blood_pressure}', true),
  ('copd', 'COPD', '{spo2,heart_rate}', true);

CREATE TABLE patient_programs (
  patient_id  integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  program_id  text NOT NULL REFERENCES programs (id),
  enrolled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (patient_id, program_id)
);
CREATE INDEX patient_programs_program_idx ON patient_programs (program_id);
-- Until now the portal ran one program: every patient enrolled in RPM was in it.
INSERT INTO patient_programs (patient_id, program_id)
SELECT id, 'hypertension' FROM patients WHERE enrolled_rpm;

-- The units each organization shows (kind -> UCUM code of one of the kind's unit choices); a kind
-- not named shows its default unit.
ALTER TABLE organizations ADD COLUMN display_units jsonb NOT NULL DEFAULT '{}'
  CHECK (jsonb_typeof(display_units) = 'object');
