-- Billing lines of open months, kept ahead (modules/billing/billing-lines.service.ts).
--
-- The billing worklist and the month report rank and total every enrolled patient's month, and
-- computing all of them again on each request costs about half a second at 10,000 patients. Each
-- patient's line of a month (the report's row, what can still come of it, the worklist's rank) is
-- kept here instead, and computed again only for the patients whose inputs changed since, or when
-- time alone changed it (a new day in the organization's calendar, or the start or end of an
-- activity span): a request recomputes the stale lines in its own transaction, then pages and
-- totals the kept ones in SQL.
--
-- Whether a line is stale: every change of a patient's billing inputs raises the patient's version
-- below, in the changing transaction; a line records the version it was computed from, read
-- before its inputs. A change that commits while a line is computed either is in the inputs read
-- (the line is then merely recomputed once more) or raises the version past the one recorded:
-- never lost. Raising is an upsert on the patient's row, so one patient's versions rise in commit
-- order.
CREATE TABLE billing_patient_versions (
  patient_id integer PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  version    bigint NOT NULL
);

CREATE TABLE billing_month_lines (
  month        date NOT NULL,
  patient_id   integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  -- billing_patient_versions.version when the line was computed (0: the patient had none).
  version_seen bigint NOT NULL,
  -- Which rules computed the line (billing-lines.service.ts: a fingerprint of their answers): a
  -- line kept by another version of the rules is stale.
  rules        text NOT NULL,
  -- The line is computed again from then on: the next midnight of the organization's calendar,
  -- or an activity span's start or end, whichever comes first.
  fresh_until  timestamptz NOT NULL,
  -- Where the line is listed: the patient's organization, and the report's order (lower() of the
  -- names, as billingInputs orders), as they were when computed; a change of either raises the
  -- patient's version, so a page never reads them stale.
  organization_id integer NOT NULL,
  last_key     text NOT NULL,
  first_key    text NOT NULL,
  -- The report's row (BillingRow) and the worklist's outlook of it (without the rank).
  line         jsonb NOT NULL,
  outlook      jsonb NOT NULL,
  -- Active for billing when computed (spans' boundaries end the line's freshness).
  active       boolean NOT NULL,
  -- The worklist's rank (compareOutlooks), in columns so the database orders and cuts the page.
  earnable     smallint NOT NULL,
  needs_code   boolean NOT NULL,
  at_risk      boolean NOT NULL,
  slack        double precision NOT NULL,
  -- The line's codes and their units (line->'codes'), apart: the report's totals sum them.
  codes        text[] NOT NULL,
  units        integer[] NOT NULL,
  PRIMARY KEY (month, patient_id)
)
-- A line is rewritten at least once a day (its freshness ends at midnight): room on its page lets
-- the rewrite stay there (a HOT update) when its ranks and names did not change.
WITH (fillfactor = 50);
CREATE INDEX billing_month_lines_patient_idx ON billing_month_lines (patient_id);
-- The report's order and the worklist's, so a page is read in order and cut without a sort.
CREATE INDEX billing_month_lines_report_idx ON billing_month_lines (month, last_key, first_key, patient_id);
CREATE INDEX billing_month_lines_worklist_idx ON billing_month_lines
  (month, earnable DESC, needs_code DESC, at_risk DESC, slack, last_key, first_key, patient_id);

CREATE FUNCTION rpm_billing_inputs_changed(ids integer[]) RETURNS void
  LANGUAGE sql SET search_path = pg_catalog, public AS $$
  -- In id order, so two transactions raising several patients lock them in the same order.
  INSERT INTO public.billing_patient_versions AS v (patient_id, version)
  SELECT DISTINCT i, 1 FROM unnest(ids) AS i WHERE i IS NOT NULL ORDER BY 1
  ON CONFLICT (patient_id) DO UPDATE SET version = v.version + 1;
$$;

-- One row trigger for the tables keyed by patient: the old and the new patient.
CREATE FUNCTION billing_inputs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM rpm_billing_inputs_changed(ARRAY[NEW.patient_id]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rpm_billing_inputs_changed(ARRAY[OLD.patient_id]);
  ELSE
    PERFORM rpm_billing_inputs_changed(ARRAY[OLD.patient_id, NEW.patient_id]);
  END IF;
  RETURN NULL;
END;
$$;

-- Days with device data: a month row's days change with the first reading of a day, not with
-- every reading (the WHEN is checked without calling the function, so the ingestion path's
-- other readings cost nothing here). The first two days (billing_reading_starts) follow the rows.
CREATE TRIGGER billing_reading_months_inputs_insert AFTER INSERT ON billing_reading_months
  FOR EACH ROW EXECUTE FUNCTION billing_inputs_changed();
CREATE TRIGGER billing_reading_months_inputs_update AFTER UPDATE ON billing_reading_months
  FOR EACH ROW WHEN (OLD.days IS DISTINCT FROM NEW.days OR OLD.patient_id <> NEW.patient_id OR OLD.month <> NEW.month)
  EXECUTE FUNCTION billing_inputs_changed();
CREATE TRIGGER billing_reading_months_inputs_delete AFTER DELETE ON billing_reading_months
  FOR EACH ROW EXECUTE FUNCTION billing_inputs_changed();

-- Minutes and interactive contact.
CREATE TRIGGER tracking_entries_billing_inputs AFTER INSERT OR UPDATE OR DELETE ON tracking_entries
  FOR EACH ROW EXECUTE FUNCTION billing_inputs_changed();

-- Activity spans: which days and minutes count, and whether the patient is active now.
CREATE TRIGGER patient_active_spans_billing_inputs AFTER INSERT OR UPDATE OR DELETE ON patient_active_spans
  FOR EACH ROW EXECUTE FUNCTION billing_inputs_changed();

-- The patient's name, enrollment and organization (the provider and programs are filters, read
-- as they are at each request).
CREATE FUNCTION patients_billing_inputs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rpm_billing_inputs_changed(ARRAY[NEW.id]);
  RETURN NULL;
END;
$$;
CREATE TRIGGER patients_billing_inputs AFTER UPDATE ON patients
  FOR EACH ROW WHEN ((OLD.first_name, OLD.last_name, OLD.enrolled_rpm, OLD.organization_id)
                     IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.enrolled_rpm, NEW.organization_id))
  EXECUTE FUNCTION patients_billing_inputs_changed();

-- The organization's calendar: every patient's days are counted again.
CREATE FUNCTION organizations_billing_inputs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rpm_billing_inputs_changed(ARRAY(SELECT id FROM public.patients WHERE organization_id = NEW.id));
  RETURN NULL;
END;
$$;
CREATE TRIGGER organizations_billing_inputs AFTER UPDATE OF time_zone ON organizations
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION organizations_billing_inputs_changed();

-- TRUNCATE fires no row trigger: every kept line is dropped instead (they are computed again).
CREATE FUNCTION billing_inputs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM public.billing_month_lines;
  RETURN NULL;
END;
$$;
CREATE TRIGGER billing_reading_months_inputs_truncate AFTER TRUNCATE ON billing_reading_months
  FOR EACH STATEMENT EXECUTE FUNCTION billing_inputs_truncated();
CREATE TRIGGER tracking_entries_billing_inputs_truncate AFTER TRUNCATE ON tracking_entries
  FOR EACH STATEMENT EXECUTE FUNCTION billing_inputs_truncated();
CREATE TRIGGER patient_active_spans_billing_inputs_truncate AFTER TRUNCATE ON patient_active_spans
  FOR EACH STATEMENT EXECUTE FUNCTION billing_inputs_truncated();

-- The background refresh of the open months' lines (modules/billing/billing.jobs.ts): one at a time.
SELECT pgboss.create_queue('billing-lines-refresh', '{"policy":"singleton","retryLimit":1,"expireInSeconds":600}');
