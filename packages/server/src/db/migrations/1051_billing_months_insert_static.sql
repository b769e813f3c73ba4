-- The readings' trigger of migration 1010 built its counting statement as text and ran it with
-- EXECUTE, which plans it anew on every call: about a millisecond of planning in every webhook
-- call, more than the insert itself. The insert's path, the one every reading takes, is now written
-- out in the function, where PL/pgSQL keeps its plan for the connection. It is the statement
-- rpm_billing_reading_months_sql(..., 1) builds, over the transition table; the other paths
-- (updates, deletes, recounts, the retention's drop) still run the built one, and the tests of
-- billing-reading-months.test.ts compare what both keep with the readings themselves.
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
