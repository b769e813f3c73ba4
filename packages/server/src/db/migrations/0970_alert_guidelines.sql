-- Alerts as the guidelines judge home readings (contracts: measurements/thresholds.ts, alerts.ts).
-- Blood pressure: stage 2 on a window's mean at or above the home equivalent 135/85 (ACC/AHA 2017,
-- table 11), crisis on one reading; rules per kind (weight, glucose, oxygen saturation, fever);
-- severities that say how urgent (critical, warning, info); snooze, escalation, resolution reasons,
-- "cleared" when the condition is no longer met.

-- Thresholds: stage 2 was "office 140/90 on one reading"; it is now the home mean 135/85. An
-- override equal to the old default (140 or 90) was the default written out: it goes back to the
-- default. Other overrides stay as their owners set them.
ALTER TABLE alert_settings RENAME COLUMN high_systolic TO stage2_systolic;
ALTER TABLE alert_settings RENAME COLUMN high_diastolic TO stage2_diastolic;
ALTER TABLE patient_alert_thresholds RENAME COLUMN high_systolic TO stage2_systolic;
ALTER TABLE patient_alert_thresholds RENAME COLUMN high_diastolic TO stage2_diastolic;
UPDATE alert_settings SET stage2_systolic = NULL WHERE stage2_systolic = 140;
UPDATE alert_settings SET stage2_diastolic = NULL WHERE stage2_diastolic = 90;
UPDATE patient_alert_thresholds SET stage2_systolic = NULL WHERE stage2_systolic = 140;
UPDATE patient_alert_thresholds SET stage2_diastolic = NULL WHERE stage2_diastolic = 90;

-- The same threshold columns on both tables (NULL: the default). Whole numbers are smallint;
-- kilograms and degrees are double precision (read back as numbers, one decimal by the schema).
ALTER TABLE alert_settings
  ADD COLUMN stage1_systolic      smallint CHECK (stage1_systolic BETWEEN 40 AND 300),
  ADD COLUMN stage1_diastolic     smallint CHECK (stage1_diastolic BETWEEN 20 AND 200),
  ADD COLUMN low_severe_systolic  smallint CHECK (low_severe_systolic BETWEEN 40 AND 300),
  ADD COLUMN low_severe_diastolic smallint CHECK (low_severe_diastolic BETWEEN 20 AND 200),
  ADD COLUMN low_severe_pulse     smallint CHECK (low_severe_pulse BETWEEN 20 AND 300),
  ADD COLUMN weight_gain_day      double precision CHECK (weight_gain_day BETWEEN 0.1 AND 20),
  ADD COLUMN weight_gain_week     double precision CHECK (weight_gain_week BETWEEN 0.1 AND 30),
  ADD COLUMN glucose_very_low     smallint CHECK (glucose_very_low BETWEEN 10 AND 800),
  ADD COLUMN glucose_low          smallint CHECK (glucose_low BETWEEN 10 AND 800),
  ADD COLUMN glucose_high         smallint CHECK (glucose_high BETWEEN 10 AND 800),
  ADD COLUMN glucose_very_high    smallint CHECK (glucose_very_high BETWEEN 10 AND 800),
  ADD COLUMN spo2_target          smallint CHECK (spo2_target BETWEEN 50 AND 100),
  ADD COLUMN spo2_target_copd     smallint CHECK (spo2_target_copd BETWEEN 50 AND 100),
  ADD COLUMN spo2_critical        smallint CHECK (spo2_critical BETWEEN 50 AND 100),
  ADD COLUMN fever                double precision CHECK (fever BETWEEN 34 AND 43),
  -- Organization-only settings (contracts: ALERT_ORGANIZATION_SETTING_KEYS).
  ADD COLUMN bp_window_days         smallint CHECK (bp_window_days BETWEEN 1 AND 30),
  ADD COLUMN bp_window_min_readings smallint CHECK (bp_window_min_readings BETWEEN 1 AND 60),
  ADD COLUMN escalation_minutes     smallint CHECK (escalation_minutes BETWEEN 1 AND 1440),
  ADD COLUMN escalation_contact_ids integer[] NOT NULL DEFAULT '{}'
    CHECK (cardinality(escalation_contact_ids) <= 20);

ALTER TABLE patient_alert_thresholds
  ADD COLUMN stage1_systolic      smallint CHECK (stage1_systolic BETWEEN 40 AND 300),
  ADD COLUMN stage1_diastolic     smallint CHECK (stage1_diastolic BETWEEN 20 AND 200),
  ADD COLUMN low_severe_systolic  smallint CHECK (low_severe_systolic BETWEEN 40 AND 300),
  ADD COLUMN low_severe_diastolic smallint CHECK (low_severe_diastolic BETWEEN 20 AND 200),
  ADD COLUMN low_severe_pulse     smallint CHECK (low_severe_pulse BETWEEN 20 AND 300),
  ADD COLUMN weight_gain_day      double precision CHECK (weight_gain_day BETWEEN 0.1 AND 20),
  ADD COLUMN weight_gain_week     double precision CHECK (weight_gain_week BETWEEN 0.1 AND 30),
  ADD COLUMN glucose_very_low     smallint CHECK (glucose_very_low BETWEEN 10 AND 800),
  ADD COLUMN glucose_low          smallint CHECK (glucose_low BETWEEN 10 AND 800),
  ADD COLUMN glucose_high         smallint CHECK (glucose_high BETWEEN 10 AND 800),
  ADD COLUMN glucose_very_high    smallint CHECK (glucose_very_high BETWEEN 10 AND 800),
  ADD COLUMN spo2_target          smallint CHECK (spo2_target BETWEEN 50 AND 100),
  ADD COLUMN spo2_critical        smallint CHECK (spo2_critical BETWEEN 50 AND 100),
  ADD COLUMN fever                double precision CHECK (fever BETWEEN 34 AND 43);

-- Alerts: the rule list of contracts' ALERT_RULES; 'bp_high' (one reading above 140/90) becomes
-- 'bp_stage2' (the mean); severity 'high' becomes 'warning' (a low reading was called "High").
ALTER TABLE alerts DROP CONSTRAINT alerts_rule_check;
ALTER TABLE alerts DROP CONSTRAINT alerts_severity_check;
UPDATE alerts SET rule = 'bp_stage2' WHERE rule = 'bp_high';
UPDATE alerts SET severity = 'warning' WHERE severity = 'high';
ALTER TABLE alerts ADD CONSTRAINT alerts_rule_check CHECK (rule IN (
  'bp_crisis', 'bp_low_severe', 'bp_stage2', 'bp_low', 'pulse_low', 'pulse_high', 'irregular_heartbeat',
  'weight_gain_day', 'weight_gain_week', 'glucose_very_low', 'glucose_low', 'glucose_very_high', 'glucose_high',
  'spo2_critical', 'spo2_low', 'fever', 'stale_data'));
ALTER TABLE alerts ADD CONSTRAINT alerts_severity_check CHECK (severity IN ('critical', 'warning', 'info'));

ALTER TABLE alerts
  -- A crisis reading: confirmed by a second severe reading within 15 minutes (NULL: other rules).
  ADD COLUMN confirmed         boolean,
  -- The condition stopped being met (set by the evaluation, cleared again if it returns).
  ADD COLUMN cleared_at        timestamptz,
  ADD COLUMN snoozed_until     timestamptz,
  ADD COLUMN escalated_at      timestamptz,
  ADD COLUMN resolution_reason text CHECK (resolution_reason IN ('reached_patient', 'medication_changed',
    'device_or_technique', 'referred', 'no_action_needed', 'enrollment_ended', 'readings_resumed'));

-- The escalation job's question: critical, still open (not acknowledged), not escalated yet.
CREATE INDEX alerts_escalation_idx ON alerts (first_at) WHERE severity = 'critical' AND status = 'open' AND escalated_at IS NULL;
-- A window rule starts after the last resolution of the same rule (a resolved alert does not reopen).
CREATE INDEX alerts_resolved_idx ON alerts (patient_id, rule, resolved_at DESC) WHERE status = 'resolved';

-- Escalation e-mails go through the outbox when no SMTP is configured.
ALTER TABLE identity.outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE identity.outbox ADD CONSTRAINT outbox_kind_check
  CHECK (kind IN ('invitation', 'reset-code', 'critical-alert', 'alert-escalation'));
