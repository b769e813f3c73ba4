-- The billing starts of a few patients (migration 1010) found by their ids, not by reading every
-- patient.
--
-- rpm_billing_reading_starts_refresh takes the patients whose first months changed, or null for
-- all of them, and chose between the two in its filter: `patient_ids IS NULL OR p.id = ANY (...)`.
-- The generic plan of that filter reads every patient and tests each against the array (EXPLAIN
-- with plan_cache_mode = force_generic_plan); PL/pgSQL keeps a generic plan for the connection
-- when the patients' statistics make it look no dearer than a plan for the call's values (say, on
-- a table analyzed while small), and otherwise plans the statement anew on every call. Measured
-- with pg_stat_statements during `npm run bench:ingest` (batches of 10, 10,000 patients): 5.5 ms a
-- call, in the webhook calls that give a patient of his first two months a new day; 0.6 ms now.
-- The null case is turned into the list of all patients first, so the statement always looks
-- patients up by id, and a plan made once for the connection looks them up by id too.
CREATE OR REPLACE FUNCTION rpm_billing_reading_starts_refresh(patient_ids integer[]) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
  IF patient_ids IS NULL THEN
    patient_ids := ARRAY(SELECT id FROM public.patients);
  END IF;
  WITH firsts AS (
    SELECT p.id AS patient_id, d.days[1] AS first_day, d.days[2] AS second_day
      FROM public.patients p
     CROSS JOIN LATERAL (
       SELECT array_agg(x.day ORDER BY x.day) AS days FROM (
         SELECT b.month + g.i - 1 AS day
           FROM (SELECT month, days FROM public.billing_reading_months
                  WHERE patient_id = p.id ORDER BY month LIMIT 2) b
          CROSS JOIN generate_series(1, 31) AS g(i)
          WHERE substring(b.days FROM g.i FOR 1) = B'1'
          ORDER BY 1 LIMIT 2) x) d
     WHERE p.id = ANY (patient_ids)
  ),
  gone AS (
    DELETE FROM public.billing_reading_starts s USING firsts f
     WHERE s.patient_id = f.patient_id AND f.first_day IS NULL
  )
  INSERT INTO public.billing_reading_starts AS s (patient_id, first_day, second_day)
  SELECT patient_id, first_day, second_day FROM firsts WHERE first_day IS NOT NULL ORDER BY patient_id
  ON CONFLICT (patient_id) DO UPDATE SET first_day = EXCLUDED.first_day, second_day = EXCLUDED.second_day
   WHERE (s.first_day, s.second_day) IS DISTINCT FROM (EXCLUDED.first_day, EXCLUDED.second_day);
END;
$$;
