-- Readings arriving from devices: ingestion sources, device assignment history, exactly-once
-- readings, unmatched readings and recent rejections.

-- A vendor cloud or EHR allowed to send readings. Only a hash of its secret is kept: the secret
-- is 256 random bits, so a plain SHA-256 is enough (no password stretching needed).
CREATE TABLE ingestion_sources (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  kind        text NOT NULL CHECK (kind IN ('tenovi', 'fhir')),
  -- The header the vendor sends the secret in (Tenovi lets the clinic pick it); FHIR uses Bearer.
  auth_header text CHECK (auth_header ~ '^[a-z0-9-]{1,64}$'),
  secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
  -- A FHIR source may also read (the EHR pulling observations), when the admin says so.
  can_read    boolean NOT NULL DEFAULT false,
  created_by  integer REFERENCES users (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  rotated_at  timestamptz,
  revoked_at  timestamptz,
  CONSTRAINT ingestion_sources_read_fhir_only CHECK (NOT can_read OR kind = 'fhir')
);

-- The last rejected measurements of each source (reason and device id only, never the payload),
-- so an admin can tell a vendor what is wrong. Trimmed to the newest few per source on insert.
CREATE TABLE ingestion_rejections (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_id         uuid NOT NULL REFERENCES ingestion_sources (id) ON DELETE CASCADE,
  reason            text NOT NULL CHECK (length(reason) <= 500),
  device_identifier text CHECK (length(device_identifier) <= 100),
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ingestion_rejections_source_idx ON ingestion_rejections (source_id, id DESC);

ALTER TABLE devices
  ADD COLUMN battery_level smallint CHECK (battery_level BETWEEN 0 AND 100),
  ADD COLUMN battery_at    timestamptz;

-- Who had a device when. Cuffs upload readings late, so a reading belongs to the patient who
-- had the device at its measurement time, not to whoever has it on arrival. Ranges are
-- half-open [assigned_from, assigned_to); an open range is the current assignment.
CREATE TABLE device_assignments (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id     integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  patient_id    integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  assigned_from timestamptz NOT NULL,
  assigned_to   timestamptz,
  CHECK (assigned_to IS NULL OR assigned_to >= assigned_from)
);
CREATE UNIQUE INDEX device_assignments_open_key ON device_assignments (device_id) WHERE assigned_to IS NULL;
CREATE INDEX device_assignments_device_time_idx ON device_assignments (device_id, assigned_from DESC);

ALTER TABLE vitals
  -- The device id the reading came from, as it was then, or 'manual' for a reading typed in.
  ADD COLUMN source              text NOT NULL DEFAULT 'manual' CHECK (length(source) BETWEEN 1 AND 100),
  ADD COLUMN measurement_index   integer NOT NULL DEFAULT 0,
  ADD COLUMN irregular_heartbeat boolean,
  ADD COLUMN source_id           uuid REFERENCES ingestion_sources (id) ON DELETE SET NULL,
  ADD COLUMN received_at         timestamptz NOT NULL DEFAULT now();

UPDATE vitals v SET source = d.device_id FROM devices d WHERE v.device_id = d.id;

-- Exactly once: a vendor retry of the same measurement (device, measured time, index) conflicts
-- here and is skipped, also when two copies arrive at the same moment on two instances. Manual
-- readings have no device (NULLs never conflict).
CREATE UNIQUE INDEX vitals_device_measurement_key ON vitals (device_id, created_at, measurement_index);

-- Readings of a device nobody had at measurement time, or of a device the portal does not know.
-- Nothing is dropped: they wait here until an admin assigns the device. A row without blood
-- pressure is a pulse that arrived before its blood pressure (the vendor may send them apart).
CREATE TABLE unmatched_readings (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_identifier   text NOT NULL CHECK (length(btrim(device_identifier)) BETWEEN 1 AND 100),
  measured_at         timestamptz NOT NULL,
  measurement_index   integer NOT NULL DEFAULT 0,
  systolic            smallint CHECK (systolic BETWEEN 40 AND 300),
  diastolic           smallint CHECK (diastolic BETWEEN 20 AND 200),
  pulse               smallint CHECK (pulse BETWEEN 20 AND 300),
  irregular_heartbeat boolean,
  source_id           uuid REFERENCES ingestion_sources (id) ON DELETE SET NULL,
  received_at         timestamptz NOT NULL DEFAULT now(),
  CHECK ((systolic IS NULL) = (diastolic IS NULL))
);
CREATE UNIQUE INDEX unmatched_readings_measurement_key
  ON unmatched_readings ((lower(btrim(device_identifier))), measured_at, measurement_index);

-- Today's assignments become the first history rows. They start at the device's earliest known
-- reading (or its creation), so the readings already stored stay with their patient.
INSERT INTO device_assignments (device_id, patient_id, assigned_from)
SELECT d.id, d.patient_id, LEAST(d.created_at, (SELECT min(v.created_at) FROM vitals v WHERE v.device_id = d.id))
  FROM devices d
 WHERE d.patient_id IS NOT NULL;

-- The history follows devices.patient_id whatever changes it (the patient form, the seed, an
-- operator), so it can never disagree with the current assignment. Giving a device to a patient
-- also attaches the readings it sent while unassigned or unknown: the new assignment reaches
-- back over that gap (never over an earlier patient's time).
CREATE FUNCTION devices_track_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
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
       AND u.measured_at >= since AND u.systolic IS NOT NULL
    RETURNING u.*
  )
  INSERT INTO vitals (patient_id, device_id, source, created_at, measurement_index, systolic, diastolic, pulse,
                      irregular_heartbeat, source_id, received_at)
  SELECT NEW.patient_id, NEW.id, NEW.device_id, m.measured_at, m.measurement_index, m.systolic, m.diastolic, m.pulse,
         m.irregular_heartbeat, m.source_id, m.received_at
    FROM moved m
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;

CREATE TRIGGER devices_assignment_insert AFTER INSERT ON devices
  FOR EACH ROW WHEN (NEW.patient_id IS NOT NULL) EXECUTE FUNCTION devices_track_assignment();
CREATE TRIGGER devices_assignment_update AFTER UPDATE OF patient_id ON devices
  FOR EACH ROW WHEN (OLD.patient_id IS DISTINCT FROM NEW.patient_id) EXECUTE FUNCTION devices_track_assignment();
