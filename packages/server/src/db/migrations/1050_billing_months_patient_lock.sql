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

-- Migration 1010's trigger function, with the lock taken before the readings are counted. Its
-- insert path, the one every reading takes, is also written out here rather than built as text and
-- run with EXECUTE: EXECUTE plans the statement anew on every call, about a millisecond in every
-- webhook call, more than the insert itself, while PL/pgSQL keeps a written-out statement's plan
-- for the connection. It is the statement rpm_billing_reading_months_sql(..., 1) builds, over the
-- transition table; the other paths (updates, deletes, recounts, the retention's drop) still run
-- the built one, and billing-reading-months.test.ts compares what both keep with the readings.
CREATE OR REPLACE FUNCTION observations_billing_months() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM billing_reading_months;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM new_rows));
    WITH counted AS (
      SELECT v.patient_id, (v.created_at AT TIME ZONE o.time_zone)::date AS day, count(*)::integer AS n
        FROM new_rows v
        JOIN patients p ON p.id = v.patient_id
        JOIN organizations o ON o.id = p.organization_id
       WHERE v.source <> 'manual' AND rpm_billable_kind(v.kind)
         AND EXISTS (SELECT 1 FROM patient_active_spans s
                      WHERE s.patient_id = v.patient_id AND s.active_from <= v.created_at
                        AND (s.active_to IS NULL OR s.active_to > v.created_at))
       GROUP BY 1, 2
    )
    INSERT INTO billing_reading_months AS b (patient_id, month, readings)
    SELECT m.patient_id, m.month, array_agg(coalesce(c.n, 0) ORDER BY g.i)
      FROM (SELECT DISTINCT patient_id, date_trunc('month', day)::date AS month FROM counted) m
     CROSS JOIN generate_series(1, 31) AS g(i)
      LEFT JOIN counted c ON c.patient_id = m.patient_id AND c.day = m.month + g.i - 1
                         AND date_trunc('month', c.day) = m.month
     GROUP BY m.patient_id, m.month
     -- Key order: concurrent statements touching the same patients lock rows in one order.
     ORDER BY 1, 2
    ON CONFLICT (patient_id, month) DO UPDATE
      SET readings = (SELECT array_agg(x + y ORDER BY i)
                        FROM unnest(b.readings, EXCLUDED.readings) WITH ORDINALITY u(x, y, i));
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM old_rows));
  ELSE
    PERFORM rpm_billing_months_lock(ARRAY(SELECT patient_id FROM old_rows UNION SELECT patient_id FROM new_rows));
  END IF;
  EXECUTE rpm_billing_reading_months_sql('SELECT patient_id, created_at, source, kind FROM old_rows', -1);
  PERFORM rpm_billing_reading_months_prune();
  IF TG_OP = 'UPDATE' THEN
    EXECUTE rpm_billing_reading_months_sql('SELECT patient_id, created_at, source, kind FROM new_rows', 1);
  END IF;
  RETURN NULL;
END;
$$;
