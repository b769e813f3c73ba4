-- The billing worklist and month at 10,000 patients (issue 28): each patient's days with device
-- data that counts, kept as readings are written, instead of counted from the raw observations at
-- every request. One row per patient and calendar month of the organization's time zone holds the
-- readings that count on each day of it (a reading from a device, never a typed-in one, of a
-- physiologic kind, measured while the patient was active); a bit string says which days have any.
-- The billing queries read a few of these rows per patient, however long the history.
--
-- Kept by the database: statement triggers on observations (insert, update, delete, truncate),
-- on patient_active_spans (a pause or a resumption, now or moved by an owner, changes which
-- readings count), on the organization's time zone and on the patient's organization (both move
-- readings to other days), and in the retention's drop of a month table.

-- The physiologic kinds of the registry in packages/contracts (MEASUREMENT_KINDS, physiologic:
-- true); a test holds the two together. A kind that changes must come with a migration that
-- replaces this function and calls rpm_billing_reading_months_rebuild().
CREATE FUNCTION rpm_billable_kind(kind text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT kind IN ('blood_pressure', 'heart_rate', 'weight', 'glucose', 'spo2', 'temperature')
$$;

-- Readings per day (31 entries, day 1 first) into the days that have any, as a bit string.
CREATE FUNCTION rpm_reading_day_bits(readings integer[]) RETURNS bit(31) LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN n > 0 THEN '1' ELSE '0' END, '' ORDER BY i)::bit(31)
    FROM unnest(readings) WITH ORDINALITY AS u(n, i)
$$;

CREATE TABLE billing_reading_months (
  patient_id integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  -- The first day of the month, in the calendar of the patient's organization's time zone.
  month      date NOT NULL CHECK (month = date_trunc('month', month)::date),
  readings   integer[] NOT NULL CHECK (cardinality(readings) = 31),
  days       bit(31) GENERATED ALWAYS AS (rpm_reading_day_bits(readings)) STORED,
  PRIMARY KEY (patient_id, month)
);

-- The days of [a, b] with counted readings in one month row: an expression the planner inlines.
CREATE FUNCTION rpm_month_days_in(month date, days bit(31), a date, b date) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN least(b, month + 30) < greatest(a, month) THEN 0
              ELSE bit_count(substring(days FROM greatest(a, month) - month + 1
                                            FOR least(b, month + 30) - greatest(a, month) + 1))::integer END
$$;

-- The statement that adds (sign 1) or subtracts (sign -1) readings: `readings` is a query with the
-- columns patient_id, created_at, source and kind (a trigger's transition table, which only the
-- trigger's own function can read, hence a statement to run rather than a function that runs it,
-- or a month table being dropped). Whether a reading counts is decided as when it was added: the
-- triggers below recount a patient's months whenever what decides it (activity, time zone,
-- organization) changes. Months left without a counted day are then removed by
-- rpm_billing_reading_months_prune().
CREATE FUNCTION rpm_billing_reading_months_sql(readings text, sign integer) RETURNS text
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
    SELECT m.patient_id, m.month, array_agg(coalesce(c.n, 0) ORDER BY g.i) AS delta
      FROM (SELECT DISTINCT patient_id, date_trunc('month', day)::date AS month FROM counted) m
     CROSS JOIN generate_series(1, 31) AS g(i)
      LEFT JOIN counted c ON c.patient_id = m.patient_id AND c.day = m.month + g.i - 1
                         AND date_trunc('month', c.day) = m.month
     GROUP BY m.patient_id, m.month$q$, readings);
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

-- Months without a counted day are not kept (the queries take a patient's first and last month
-- with data as the first and last day's); the partial index finds them at once.
CREATE INDEX billing_reading_months_empty_idx ON billing_reading_months (patient_id)
  WHERE days = B'0000000000000000000000000000000';
CREATE FUNCTION rpm_billing_reading_months_prune() RETURNS void LANGUAGE sql SET search_path = pg_catalog, public AS $$
  DELETE FROM public.billing_reading_months WHERE days = B'0000000000000000000000000000000'
$$;

-- Counts the patients' months again from their readings, for the instants [lo, hi] of each
-- (whole months of the organization's calendar around them; infinite bounds are allowed).
CREATE FUNCTION rpm_billing_reading_months_recount(patient_ids integer[], lo timestamptz[], hi timestamptz[])
  RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
  CREATE TEMPORARY TABLE IF NOT EXISTS rpm_recount_ranges (patient_id integer, m_lo date, m_hi date,
                                                           t_lo timestamptz, t_hi timestamptz) ON COMMIT DROP;
  DELETE FROM rpm_recount_ranges;
  INSERT INTO rpm_recount_ranges
  SELECT r.patient_id, x.m_lo, x.m_hi,
         x.m_lo::timestamp AT TIME ZONE o.time_zone,
         (x.m_hi::timestamp + interval '1 month') AT TIME ZONE o.time_zone
    FROM unnest(patient_ids, lo, hi) AS r(patient_id, lo, hi)
    JOIN public.patients p ON p.id = r.patient_id
    JOIN public.organizations o ON o.id = p.organization_id
   CROSS JOIN LATERAL (SELECT date_trunc('month', r.lo AT TIME ZONE o.time_zone)::date AS m_lo,
                              date_trunc('month', r.hi AT TIME ZONE o.time_zone)::date AS m_hi) x;
  DELETE FROM public.billing_reading_months b USING rpm_recount_ranges r
   WHERE b.patient_id = r.patient_id AND b.month BETWEEN r.m_lo AND r.m_hi;
  -- DISTINCT: ranges of one patient may overlap; each reading is counted once.
  EXECUTE rpm_billing_reading_months_sql(
    'SELECT DISTINCT v.id, v.patient_id, v.created_at, v.source, v.kind
       FROM public.observations v JOIN rpm_recount_ranges r ON r.patient_id = v.patient_id
      WHERE v.created_at >= r.t_lo AND v.created_at < r.t_hi AND v.source <> ''manual''', 1);
END;
$$;

-- Each patient's first two days with counted data, of all months: the first day anchors the
-- 30-day periods and the second says whether the first period is the setup one (two days), so the
-- month queries need not look for them in each patient's history. Kept from the months' rows.
CREATE TABLE billing_reading_starts (
  patient_id integer PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  first_day  date NOT NULL,
  second_day date
);

-- The month queries read the rows of two or three months for every patient at once.
CREATE INDEX billing_reading_months_month_idx ON billing_reading_months (month, patient_id);

-- The starts of these patients (all with null) taken again from their first two month rows.
CREATE FUNCTION rpm_billing_reading_starts_refresh(patient_ids integer[]) RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
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
     WHERE (patient_ids IS NULL OR p.id = ANY (patient_ids))
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

CREATE FUNCTION billing_reading_months_starts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT patient_id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    -- A month gaining or losing days changes the starts only when it is one of the first two.
    SELECT array_agg(DISTINCT n.patient_id) INTO ids
      FROM new_rows n JOIN old_rows o ON o.patient_id = n.patient_id AND o.month = n.month
     WHERE n.days IS DISTINCT FROM o.days
       AND n.month <= (SELECT coalesce(max(b.month), 'infinity') FROM (
                         SELECT month FROM billing_reading_months WHERE patient_id = n.patient_id
                          ORDER BY month LIMIT 2) b);
  ELSE
    SELECT array_agg(DISTINCT patient_id) INTO ids FROM old_rows;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM rpm_billing_reading_starts_refresh(ids);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER billing_reading_months_starts_insert AFTER INSERT ON billing_reading_months
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION billing_reading_months_starts();
CREATE TRIGGER billing_reading_months_starts_update AFTER UPDATE ON billing_reading_months
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION billing_reading_months_starts();
CREATE TRIGGER billing_reading_months_starts_delete AFTER DELETE ON billing_reading_months
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION billing_reading_months_starts();

-- Every patient's months counted again from all readings (after a change of the kinds above, or
-- after loading readings with triggers off).
CREATE FUNCTION rpm_billing_reading_months_rebuild() RETURNS void
  LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
  DELETE FROM public.billing_reading_months;
  EXECUTE rpm_billing_reading_months_sql('SELECT patient_id, created_at, source, kind FROM public.observations', 1);
  -- Also when triggers are off (session_replication_role = replica).
  DELETE FROM public.billing_reading_starts;
  PERFORM rpm_billing_reading_starts_refresh(NULL);
END;
$$;
SELECT rpm_billing_reading_months_rebuild();

-- ---- triggers ----------------------------------------------------------------------------------

CREATE FUNCTION observations_billing_months() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM billing_reading_months;
    RETURN NULL;
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
CREATE TRIGGER observations_billing_months_insert AFTER INSERT ON observations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_billing_months();
CREATE TRIGGER observations_billing_months_update AFTER UPDATE ON observations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_billing_months();
CREATE TRIGGER observations_billing_months_delete AFTER DELETE ON observations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION observations_billing_months();
CREATE TRIGGER observations_billing_months_truncate AFTER TRUNCATE ON observations
  FOR EACH STATEMENT EXECUTE FUNCTION observations_billing_months();

-- A span of activity added, removed or moved: the readings that change from counted to not (or
-- back) are those between the old and the new bounds.
CREATE FUNCTION patient_active_spans_billing_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
  los timestamptz[];
  his timestamptz[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(patient_id), array_agg(lo), array_agg(hi) INTO ids, los, his FROM (
      SELECT n.patient_id, least(o.active_from, n.active_from) AS lo, greatest(o.active_from, n.active_from) AS hi
        FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.active_from <> n.active_from
      UNION ALL
      SELECT n.patient_id, least(coalesce(o.active_to, 'infinity'), coalesce(n.active_to, 'infinity')),
             greatest(coalesce(o.active_to, 'infinity'), coalesce(n.active_to, 'infinity'))
        FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.active_to IS DISTINCT FROM n.active_to
      UNION ALL
      SELECT x.patient_id, '-infinity', 'infinity'
        FROM old_rows o JOIN new_rows n ON n.id = o.id CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
       WHERE o.patient_id <> n.patient_id) r;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(patient_id), array_agg(active_from), array_agg(coalesce(active_to, 'infinity'))
      INTO ids, los, his FROM new_rows;
  ELSE
    SELECT array_agg(patient_id), array_agg(active_from), array_agg(coalesce(active_to, 'infinity'))
      INTO ids, los, his FROM old_rows;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM rpm_billing_reading_months_recount(ids, los, his);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER patient_active_spans_billing_months_insert AFTER INSERT ON patient_active_spans
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_active_spans_billing_months();
CREATE TRIGGER patient_active_spans_billing_months_update AFTER UPDATE ON patient_active_spans
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_active_spans_billing_months();
CREATE TRIGGER patient_active_spans_billing_months_delete AFTER DELETE ON patient_active_spans
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_active_spans_billing_months();

-- Another time zone, or another organization, puts the same readings on other days.
CREATE FUNCTION patients_billing_months_recount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    SELECT array_agg(id) INTO ids FROM patients WHERE organization_id = NEW.id;
  ELSE
    ids := ARRAY[NEW.id];
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM rpm_billing_reading_months_recount(ids, array_fill('-infinity'::timestamptz, ARRAY[cardinality(ids)]),
                                               array_fill('infinity'::timestamptz, ARRAY[cardinality(ids)]));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER organizations_billing_months_time_zone AFTER UPDATE OF time_zone ON organizations
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION patients_billing_months_recount();
CREATE TRIGGER patients_billing_months_organization AFTER UPDATE OF organization_id ON patients
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id) EXECUTE FUNCTION patients_billing_months_recount();

-- The retention drops a month table without deleting its rows: the same function as 1000, which
-- also takes the month's readings out of the billing months.
CREATE OR REPLACE FUNCTION rpm_partition_drop(base text, month date, p_request_id text) RETURNS bigint
  LANGUAGE plpgsql SET search_path = pg_catalog, public SET lock_timeout = '10s' AS $$
DECLARE
  part text := rpm_partition_name(base, month);
  first_id bigint;
  last_id bigint;
  n bigint;
BEGIN
  IF to_regclass(format('partitions.%I', part)) IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT min(id), max(id), count(*) FROM partitions.%I', part) INTO first_id, last_id, n;
  IF base = 'observations' THEN
    -- What the row triggers of a DELETE would have done: no reference to a reading that is gone,
    -- and the per-patient counts without it.
    EXECUTE format('DELETE FROM public.alert_readings WHERE vital_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('UPDATE public.alerts SET last_vital_id = NULL WHERE last_vital_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('DELETE FROM public.observation_identifiers WHERE observation_id IN (SELECT id FROM partitions.%I)', part);
    EXECUTE format('UPDATE public.patient_observation_counts c SET n = greatest(0, c.n - d.k)
                      FROM (SELECT patient_id, kind, count(*) AS k FROM partitions.%I GROUP BY patient_id, kind) d
                     WHERE c.patient_id = d.patient_id AND c.kind = d.kind', part);
    EXECUTE public.rpm_billing_reading_months_sql(
      format('SELECT patient_id, created_at, source, kind FROM partitions.%I', part), -1);
    PERFORM public.rpm_billing_reading_months_prune();
  END IF;
  EXECUTE format('ALTER TABLE public.%I DETACH PARTITION partitions.%I', base, part);
  EXECUTE format('DROP TABLE partitions.%I', part);
  INSERT INTO public.partition_drops (base, month, first_id, last_id, rows) VALUES (base, month, first_id, last_id, n);
  PERFORM rpm_partition_audit('partition.drop', base || '/' || to_char(month, 'YYYY-MM'),
    jsonb_build_object('table', base, 'month', to_char(month, 'YYYY-MM'), 'rows', n, 'first_id', first_id, 'last_id', last_id),
    p_request_id);
  RETURN n;
END;
$$;

-- The month's tracking time of every patient at once, read by date range: without it, the month
-- queries read every entry ever logged.
CREATE INDEX tracking_entries_date_idx ON tracking_entries (date, patient_id) INCLUDE (duration_minutes, interactive);
