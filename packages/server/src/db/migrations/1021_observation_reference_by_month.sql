-- The reference checks of migration 1000 find a reading by id alone, which on observations
-- (partitioned by measured time) probes the id index of every month table: 18 probes at 13 months
-- of data, each a few pages deeper as the months fill, in every webhook call that raises or counts
-- an alert (the alert's last reading, and its alert_readings row). Where the referencing row knows
-- the reading's measured time, the check now looks the reading up by (id, created_at), which is
-- the primary key and reaches one month table; it falls back to the id alone when the time is not
-- known or does not match, so what is accepted and refused is exactly as before.
--
-- An alert's last_at is the measured time of its last reading (raiseAlert sets both from the same
-- reading, and keeps the later of the two), and a reading is linked to an alert (alert_readings)
-- in the statement that makes it the alert's last one, nearly always. An unchanged reference on
-- UPDATE is not checked again, as a foreign key would not: raising an alert again with an older
-- reading keeps last_vital_id as it is.

-- Whether the reading `ref` exists (locked against a concurrent delete, as a foreign key's check
-- does); `seen`, when known, is its measured time. The generic plan is forced: with the time as a
-- parameter the plan cache would otherwise plan each call anew over every month table (slower than
-- the probes it saves), while the generic plan prunes to one month when it starts.
CREATE FUNCTION observations_reference_check(ref bigint, seen timestamptz, referencing name) RETURNS void
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF seen IS NOT NULL THEN
    PERFORM 1 FROM observations WHERE id = ref AND created_at = seen FOR KEY SHARE;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  PERFORM 1 FROM observations WHERE id = ref FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "%" violates the reference to observations: no reading %', referencing, ref
      USING ERRCODE = 'foreign_key_violation';
  END IF;
END;
$$;

CREATE FUNCTION alerts_last_reading_exists() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM observations_reference_check(NEW.last_vital_id, NEW.last_at, TG_TABLE_NAME);
  RETURN NEW;
END;
$$;

CREATE FUNCTION alert_readings_reading_exists() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seen timestamptz;
BEGIN
  SELECT a.last_at INTO seen FROM alerts a WHERE a.id = NEW.alert_id AND a.last_vital_id = NEW.vital_id;
  PERFORM observations_reference_check(NEW.vital_id, seen, TG_TABLE_NAME);
  RETURN NEW;
END;
$$;

DROP TRIGGER alerts_observation_exists ON alerts;
CREATE TRIGGER alerts_observation_exists BEFORE INSERT ON alerts
  FOR EACH ROW WHEN (NEW.last_vital_id IS NOT NULL) EXECUTE FUNCTION alerts_last_reading_exists();
CREATE TRIGGER alerts_observation_exists_update BEFORE UPDATE OF last_vital_id ON alerts
  FOR EACH ROW WHEN (NEW.last_vital_id IS NOT NULL AND NEW.last_vital_id IS DISTINCT FROM OLD.last_vital_id)
  EXECUTE FUNCTION alerts_last_reading_exists();

DROP TRIGGER alert_readings_observation_exists ON alert_readings;
CREATE TRIGGER alert_readings_observation_exists BEFORE INSERT ON alert_readings
  FOR EACH ROW EXECUTE FUNCTION alert_readings_reading_exists();
CREATE TRIGGER alert_readings_observation_exists_update BEFORE UPDATE OF vital_id ON alert_readings
  FOR EACH ROW WHEN (NEW.vital_id IS DISTINCT FROM OLD.vital_id) EXECUTE FUNCTION alert_readings_reading_exists();
