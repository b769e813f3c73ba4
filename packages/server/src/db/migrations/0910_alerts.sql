-- Clinical alerts: every stored reading is checked against thresholds (organization defaults,
-- overridden per patient); one open alert per patient and rule counts the readings that broke it.
-- Threshold columns mirror AlertThresholds in packages/contracts (alerts.ts); NULL means "the
-- default": the organization's value, else the portal's (ACC/AHA-based) one.

CREATE TABLE alert_settings (
  organization_id    integer PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  crisis_systolic    smallint CHECK (crisis_systolic BETWEEN 40 AND 300),
  crisis_diastolic   smallint CHECK (crisis_diastolic BETWEEN 20 AND 200),
  high_systolic      smallint CHECK (high_systolic BETWEEN 40 AND 300),
  high_diastolic     smallint CHECK (high_diastolic BETWEEN 20 AND 200),
  low_systolic       smallint CHECK (low_systolic BETWEEN 40 AND 300),
  low_diastolic      smallint CHECK (low_diastolic BETWEEN 20 AND 200),
  pulse_low          smallint CHECK (pulse_low BETWEEN 20 AND 300),
  pulse_high         smallint CHECK (pulse_high BETWEEN 20 AND 300),
  target_systolic    smallint CHECK (target_systolic BETWEEN 40 AND 300),
  target_diastolic   smallint CHECK (target_diastolic BETWEEN 20 AND 200),
  stale_days         smallint CHECK (stale_days BETWEEN 1 AND 90),
  updated_by         integer REFERENCES users (id),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE patient_alert_thresholds (
  patient_id         integer PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  crisis_systolic    smallint CHECK (crisis_systolic BETWEEN 40 AND 300),
  crisis_diastolic   smallint CHECK (crisis_diastolic BETWEEN 20 AND 200),
  high_systolic      smallint CHECK (high_systolic BETWEEN 40 AND 300),
  high_diastolic     smallint CHECK (high_diastolic BETWEEN 20 AND 200),
  low_systolic       smallint CHECK (low_systolic BETWEEN 40 AND 300),
  low_diastolic      smallint CHECK (low_diastolic BETWEEN 20 AND 200),
  pulse_low          smallint CHECK (pulse_low BETWEEN 20 AND 300),
  pulse_high         smallint CHECK (pulse_high BETWEEN 20 AND 300),
  target_systolic    smallint CHECK (target_systolic BETWEEN 40 AND 300),
  target_diastolic   smallint CHECK (target_diastolic BETWEEN 20 AND 200),
  updated_by         integer REFERENCES users (id),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE alerts (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id          integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  -- The patient's organization, copied so the worklist is one index range per organization.
  organization_id     integer NOT NULL REFERENCES organizations (id),
  rule                text NOT NULL CHECK (rule IN ('bp_crisis', 'bp_high', 'bp_low', 'pulse_low', 'pulse_high',
                                                    'irregular_heartbeat', 'stale_data')),
  severity            text NOT NULL CHECK (severity IN ('critical', 'high', 'info')),
  -- 0 critical, 1 high, 2 info: the worklist's first sort key.
  severity_rank       smallint NOT NULL CHECK (severity_rank BETWEEN 0 AND 2),
  status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'resolved')),
  count               integer NOT NULL DEFAULT 1 CHECK (count >= 1),
  first_at            timestamptz NOT NULL,
  last_at             timestamptz NOT NULL,
  last_values         jsonb NOT NULL,
  last_vital_id       bigint REFERENCES vitals (id) ON DELETE SET NULL,
  acknowledged_by     integer REFERENCES users (id),
  acknowledged_at     timestamptz,
  resolved_by         integer REFERENCES users (id),
  resolved_at         timestamptz,
  resolution_note_id  integer REFERENCES notes (id) ON DELETE SET NULL,
  -- Set once the critical alert's e-mail is claimed by one instance: it is sent once.
  notified_at         timestamptz,
  updated_at          timestamptz NOT NULL DEFAULT now()
);
-- One alert per patient and rule until it is resolved: later readings count on it.
CREATE UNIQUE INDEX alerts_open_key ON alerts (patient_id, rule) WHERE status <> 'resolved';
-- The worklist: critical first, then oldest, within an organization and status. The patient is
-- included so that the provider filter and the totals are answered from the index alone.
CREATE INDEX alerts_worklist_idx ON alerts (organization_id, status, severity_rank, first_at, id) INCLUDE (patient_id);
CREATE INDEX alerts_worklist_all_idx ON alerts (status, severity_rank, first_at, id) INCLUDE (patient_id);
CREATE INDEX alerts_patient_idx ON alerts (patient_id, status);
-- The worklist's provider filter starts from the provider's patients.
CREATE INDEX patients_primary_provider_idx ON patients (primary_provider_id);

-- Which readings raised or counted on which alert (the vitals Figure marks them).
CREATE TABLE alert_readings (
  alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  vital_id bigint NOT NULL REFERENCES vitals (id) ON DELETE CASCADE,
  PRIMARY KEY (alert_id, vital_id)
);
CREATE INDEX alert_readings_vital_idx ON alert_readings (vital_id);

-- A critical alert's e-mail goes through the outbox when no SMTP is configured.
ALTER TABLE identity.outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE identity.outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('invitation', 'reset-code', 'critical-alert'));
