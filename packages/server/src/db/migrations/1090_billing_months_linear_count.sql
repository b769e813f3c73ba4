-- The billing months' count of a statement's readings (migrations 1010 and 1050), in time linear in
-- the readings, whatever plan the statement gets.
--
-- Each (patient, month) row was built by joining its 31 days to the statement's counted days. The
-- readings' trigger keeps its statement's plan for the connection (PL/pgSQL), made for the
-- transition table of the connection's first statement: a webhook's connection first stores a
-- call of one or ten readings, and a plan for so few rows joined by rescanning all counted days for
-- every day of every month, 31 x months x days comparisons. A webhook call of 100 readings for 100
-- patients paid 310,000 of them in its storing statement (auto_explain during
-- `npm run bench:ingest`, with its timing overhead: the trigger's statement took 150 to 300 ms of
-- the call's 170 to 360 ms, the store itself 11 ms), and a statement of 7,300 readings of one
-- patient over forty years took 12 s, 0.7 s now (billing-reading-months.test.ts). A COPY of a
-- batch paid it too.
--
-- Each month's delta is now built from its own counted days alone: the days and their counts
-- gathered into two arrays per (patient, month), then read out day by day. No join is left for a
-- plan to get wrong. The rows kept are the same; the test of the kept days compares them with the
-- readings, and a rebuild with both.

CREATE OR REPLACE FUNCTION rpm_billing_reading_months_sql(readings text, sign integer) RETURNS text
  LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  per_month text := format($q$
    WITH counted AS (
      SELECT v.patient_id, (v.created_at AT TIME ZONE o.time_zone)::date AS day, count(*)::integer AS n
        FROM (%s) v
        JOIN public.patients p ON p.id = v.patient_id
        JOIN public.organizations o ON o.id = p.organization_id
       WHERE v.source <> 'manual' AND public.rpm_billable_kind(v.kind)
         -- rpm_patient_active_at, written out: as a join the planner reads the spans once
         -- (a rebuild counts every reading; the function would probe them once per reading).
         AND EXISTS (SELECT 1 FROM public.patient_active_spans s
                      WHERE s.patient_id = v.patient_id AND s.active_from <= v.created_at
                        AND (s.active_to IS NULL OR s.active_to > v.created_at))
       GROUP BY 1, 2
    )
    SELECT m.patient_id, m.month,
           ARRAY(SELECT coalesce(m.ns[array_position(m.ds, g.i)], 0) FROM generate_series(1, 31) AS g(i) ORDER BY g.i)
             AS delta
      FROM (SELECT patient_id, date_trunc('month', day)::date AS month,
                   array_agg(extract(day FROM day)::integer) AS ds, array_agg(n) AS ns
              FROM counted GROUP BY 1, 2) m$q$, readings);
BEGIN
  IF sign > 0 THEN
    RETURN format($q$
      INSERT INTO public.billing_reading_months AS b (patient_id, month, readings)
      SELECT patient_id, month, delta FROM (%s) d
       -- Key order: concurrent statements touching the same patients lock rows in one order.
       ORDER BY patient_id, month
      ON CONFLICT (patient_id, month) DO UPDATE
        SET readings = (SELECT array_agg(x + y ORDER BY i)
                          FROM unnest(b.readings, EXCLUDED.readings) WITH ORDINALITY u(x, y, i))$q$, per_month);
  END IF;
  RETURN format($q$
    UPDATE public.billing_reading_months b
       SET readings = (SELECT array_agg(greatest(0, x - y) ORDER BY i)
                         FROM unnest(b.readings, d.delta) WITH ORDINALITY u(x, y, i))
      FROM (%s) d
     WHERE b.patient_id = d.patient_id AND b.month = d.month$q$, per_month);
END;
$$;

-- Migration 1050's trigger function with its written-out insert path built the same way (it is
-- still the statement rpm_billing_reading_months_sql(..., 1) builds, over the transition table).
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
    SELECT m.patient_id, m.month,
           ARRAY(SELECT coalesce(m.ns[array_position(m.ds, g.i)], 0) FROM generate_series(1, 31) AS g(i) ORDER BY g.i)
      FROM (SELECT patient_id, date_trunc('month', day)::date AS month,
                   array_agg(extract(day FROM day)::integer) AS ds, array_agg(n) AS ns
              FROM counted GROUP BY 1, 2) m
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
