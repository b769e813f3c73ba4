-- Readings that arrive for a patient while the same patient's activity changes (a pause, a
-- resumption, a span an owner edits, another time zone or organization) were counted from two
-- views that did not see each other: under READ COMMITTED, the readings' trigger decided "active or
-- not" from spans as they were before the uncommitted change, and the change's recount counted
-- readings without the uncommitted new ones. A resumption committed beside a reading then lost the
-- reading from the billing months, and a pause beside one kept it.
--
-- Both sides now take a lock on the patient before they count, so the later side waits for the
-- earlier one to commit and then counts from a fresh snapshot that holds the earlier side's rows
-- (PL/pgSQL takes a new snapshot for each statement under READ COMMITTED, the portal's level).
--
-- The locks are advisory ones, one per patient. A statement over many patients (an organization's
-- time zone changed, a bulk load) takes one lock over all patients instead, which every other
-- statement takes shared first: one lock per patient there would fill the server's lock table,
-- which holds only a few thousand in all.
CREATE FUNCTION rpm_billing_months_lock(patient_ids integer[]) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
  many constant integer := 256;
  n integer := (SELECT count(DISTINCT id) FROM unnest(patient_ids) AS u(id));
BEGIN
  IF n > many THEN
    PERFORM pg_advisory_xact_lock(hashtext('billing-reading-months-all'), 0);
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(hashtext('billing-reading-months-all'), 0);
  -- In id order, so that two statements over the same patients never wait for each other in a cycle.
  PERFORM pg_advisory_xact_lock(hashtext('billing-reading-months'), id)
     FROM (SELECT DISTINCT id FROM unnest(patient_ids) AS u(id) ORDER BY 1) ids;
END;
$$;

-- The body of migration 1010's function, behind the lock. Renamed rather than rewritten, so that
-- its body stays in one place; its callers call it by name and so reach the locked one.
ALTER FUNCTION rpm_billing_reading_months_recount(integer[], timestamptz[], timestamptz[])
  RENAME TO rpm_billing_reading_months_recount_unlocked;
CREATE FUNCTION rpm_billing_reading_months_recount(patient_ids integer[], lo timestamptz[], hi timestamptz[])
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
  PERFORM rpm_billing_months_lock(patient_ids);
  PERFORM rpm_billing_reading_months_recount_unlocked(patient_ids, lo, hi);
END;
$$;

-- Migration 1010's trigger function, with the lock taken before the readings are counted.
CREATE OR REPLACE FUNCTION observations_billing_months() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM billing_reading_months;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM old_rows));
  ELSE
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM old_rows UNION SELECT patient_id FROM new_rows));
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE rpm_billing_reading_months_sql('SELECT patient_id, created_at, source, kind FROM old_rows', -1);
    PERFORM rpm_billing_reading_months_prune();
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE rpm_billing_reading_months_sql('SELECT patient_id, created_at, source, kind FROM new_rows', 1);
  END IF;
  RETURN NULL;
END;
$$;
