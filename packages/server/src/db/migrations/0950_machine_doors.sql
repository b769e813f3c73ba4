-- The machine doors' ground (devices and EHRs): sources belong to one organization, read keys
-- expire, and a reading's identity is what the vendor measured (device, kind, measured time),
-- never an index the sender chooses.

-- A source key once wrote and read for every organization. Now each source is created for one
-- organization and acts only within it. Existing sources go to the only organization; where there
-- are several nobody can tell which one a source served, so it stays without one, and a source
-- without an organization is refused until an admin chooses it (the integrations page says so).
ALTER TABLE ingestion_sources
  ADD COLUMN organization_id integer REFERENCES organizations (id),
  -- Static FHIR read keys expire (until SMART Backend Services replaces them); null: no expiry.
  ADD COLUMN expires_at      timestamptz;
UPDATE ingestion_sources
   SET organization_id = (SELECT min(id) FROM organizations)
 WHERE (SELECT count(*) FROM organizations) = 1;
CREATE INDEX ingestion_sources_organization_idx ON ingestion_sources (organization_id);

-- A reading is of one kind: blood pressure (with its pulse when the cuff sends one) or a heart
-- rate on its own (an FHIR Observation 8867-4 that no blood pressure goes with).
ALTER TABLE vitals
  ADD COLUMN kind text NOT NULL DEFAULT 'blood_pressure' CHECK (kind IN ('blood_pressure', 'heart_rate')),
  ALTER COLUMN systolic DROP NOT NULL,
  ALTER COLUMN diastolic DROP NOT NULL,
  ADD CONSTRAINT vitals_kind_values CHECK (
    CASE kind
      WHEN 'blood_pressure' THEN systolic IS NOT NULL AND diastolic IS NOT NULL
      ELSE systolic IS NULL AND diastolic IS NULL AND pulse IS NOT NULL
    END);
ALTER TABLE unmatched_readings
  ADD COLUMN kind text NOT NULL DEFAULT 'blood_pressure' CHECK (kind IN ('blood_pressure', 'heart_rate')),
  ADD CONSTRAINT unmatched_readings_kind_values CHECK (kind = 'blood_pressure' OR (systolic IS NULL AND pulse IS NOT NULL));

-- The same measurement sent with other indexes was stored once per index. Those copies are one
-- reading: the first stored is kept, the later copies go.
DELETE FROM vitals v USING vitals w
 WHERE v.device_id = w.device_id AND v.kind = w.kind AND v.created_at = w.created_at AND v.id > w.id;
DROP INDEX vitals_device_measurement_key;
CREATE UNIQUE INDEX vitals_device_reading_key ON vitals (device_id, kind, created_at);

DELETE FROM unmatched_readings v USING unmatched_readings w
 WHERE lower(btrim(v.device_identifier)) = lower(btrim(w.device_identifier)) AND v.kind = w.kind
   AND v.measured_at = w.measured_at AND v.id > w.id;
DROP INDEX unmatched_readings_measurement_key;
CREATE UNIQUE INDEX unmatched_readings_reading_key
  ON unmatched_readings ((lower(btrim(device_identifier))), kind, measured_at);

-- The assignment trigger moves heart rates too (a lone pulse waiting for its blood pressure,
-- kind blood_pressure without systolic, still waits).
CREATE OR REPLACE FUNCTION devices_track_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous_end timestamptz;
  since        timestamptz;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.patient_id IS NOT NULL THEN
    UPDATE device_assignments SET assigned_to = now() WHERE device_id = NEW.id AND assigned_to IS NULL;
  END IF;
  IF NEW.patient_id IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT max(assigned_to) INTO previous_end FROM device_assignments WHERE device_id = NEW.id;
  SELECT LEAST(now(), min(u.measured_at)) INTO since
    FROM unmatched_readings u
   WHERE lower(btrim(u.device_identifier)) = lower(btrim(NEW.device_id))
     AND (previous_end IS NULL OR u.measured_at >= previous_end);
  since := COALESCE(since, now());
  INSERT INTO device_assignments (device_id, patient_id, assigned_from) VALUES (NEW.id, NEW.patient_id, since);
  WITH moved AS (
    DELETE FROM unmatched_readings u
     WHERE lower(btrim(u.device_identifier)) = lower(btrim(NEW.device_id))
       AND u.measured_at >= since AND (u.systolic IS NOT NULL OR u.kind = 'heart_rate')
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
