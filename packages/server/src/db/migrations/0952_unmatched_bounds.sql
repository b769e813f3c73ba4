-- Unmatched readings are bounded: counted per source against its quota on every webhook call,
-- and deleted by a daily job once older than the retention. Both need an index to stay cheap.
CREATE INDEX unmatched_readings_source_idx ON unmatched_readings (source_id);
CREATE INDEX unmatched_readings_received_idx ON unmatched_readings (received_at);

-- The retention job's queue (see 0911: the runtime role creates no queue itself).
SELECT pgboss.create_queue('ingestion-unmatched-retention', '{"policy":"singleton","retryLimit":2,"expireInSeconds":600}');

-- A reading parked by one organization's source never moves to another organization's patient
-- when the device is assigned: only readings of sources of the patient's organization (or of no
-- source) move; the others stay parked until the retention removes them. Otherwise as in 0950.
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
