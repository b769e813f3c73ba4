-- RPM billing (CMS 2026): the organization's time zone for counting days with device data, the
-- "interactive contact" mark on tracking time, and the months submitted for billing.

-- Days with readings are counted in the clinic's own day, not in UTC: a reading at 23:30 in New
-- York is that day's, not the next one's. Names are checked against pg_timezone_names when set.
ALTER TABLE organizations ADD COLUMN time_zone text NOT NULL DEFAULT 'America/New_York'
  CHECK (length(time_zone) BETWEEN 1 AND 64);

-- Treatment management codes need at least one real-time interactive communication in the month.
ALTER TABLE tracking_sessions ADD COLUMN interactive boolean NOT NULL DEFAULT false;

-- A month an admin has submitted for billing: tracking time dated in it is no longer accepted.
CREATE TABLE billing_closed_months (
  month     date PRIMARY KEY CHECK (month = date_trunc('month', month)::date),
  closed_by integer REFERENCES users (id),
  closed_at timestamptz NOT NULL DEFAULT now()
);

-- The report reads device readings per patient and time; manual entries never count, so the
-- index leaves them out and stays smaller than the table.
CREATE INDEX vitals_device_day_idx ON vitals (patient_id, created_at) WHERE source <> 'manual';
