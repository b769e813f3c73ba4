-- Exact per-patient reading counts for the vitals pager's `total`, kept by the database itself.
-- Counting a patient's readings over vitals_patient_time_idx costs ~12 ms at 100,000 readings
-- and grows with them; this row makes `total` one primary-key lookup however many there are.
-- Statement-level triggers with transition tables: a bulk insert of N readings updates each
-- patient's row once, not N times.

CREATE TABLE patient_vital_counts (
  patient_id integer PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  n          bigint NOT NULL DEFAULT 0 CHECK (n >= 0)
);

INSERT INTO patient_vital_counts (patient_id, n)
SELECT patient_id, count(*) FROM vitals GROUP BY patient_id;

CREATE FUNCTION patient_vital_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Patient order: concurrent statements touching the same patients lock rows in one order.
  INSERT INTO patient_vital_counts AS c (patient_id, n)
  SELECT patient_id, count(*) FROM inserted GROUP BY patient_id ORDER BY patient_id
  ON CONFLICT (patient_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;

-- Deletes only subtract (never upsert): a cascade from a deleted patient must not re-create a row.
CREATE FUNCTION patient_vital_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE patient_vital_counts c SET n = greatest(0, c.n - d.k)
    FROM (SELECT patient_id, count(*) AS k FROM deleted GROUP BY patient_id) d
   WHERE c.patient_id = d.patient_id;
  RETURN NULL;
END;
$$;

CREATE FUNCTION patient_vital_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE patient_vital_counts c SET n = greatest(0, c.n - d.k)
    FROM (SELECT patient_id, count(*) AS k FROM deleted GROUP BY patient_id) d
   WHERE c.patient_id = d.patient_id;
  INSERT INTO patient_vital_counts AS c (patient_id, n)
  SELECT patient_id, count(*) FROM inserted GROUP BY patient_id ORDER BY patient_id
  ON CONFLICT (patient_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END;
$$;

CREATE FUNCTION patient_vital_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM patient_vital_counts;
  RETURN NULL;
END;
$$;

CREATE TRIGGER vitals_count_insert AFTER INSERT ON vitals
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION patient_vital_counts_insert();
CREATE TRIGGER vitals_count_delete AFTER DELETE ON vitals
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION patient_vital_counts_delete();
-- Only a change of patient moves a reading between counts (transition tables do not allow a
-- column list, and readings are hardly ever updated).
CREATE TRIGGER vitals_count_update AFTER UPDATE ON vitals
  REFERENCING OLD TABLE AS deleted NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION patient_vital_counts_update();
CREATE TRIGGER vitals_count_truncate AFTER TRUNCATE ON vitals
  FOR EACH STATEMENT EXECUTE FUNCTION patient_vital_counts_truncate();
