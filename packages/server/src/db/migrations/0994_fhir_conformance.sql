-- FHIR conformance on output (issue 27): the business identifiers a sender gives its
-- Observations (Observation.identifier, e.g. the gateway's own id of a measurement). They are
-- returned on read and let a sender retry safely: a create with `If-None-Exist: identifier=…`
-- finds the Observation it already made instead of making another.
--
-- A side table rather than a column: one Observation may carry several identifiers, and the
-- readings webhooks store have none. An identifier names one Observation within the sending
-- organization (two hospitals may both number their measurements from 1). A missing system is
-- a value of its own (NULLS NOT DISTINCT), so `|123` names one Observation too.
CREATE TABLE observation_identifiers (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  observation_id  bigint NOT NULL REFERENCES observations (id) ON DELETE CASCADE,
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  system          text CHECK (system IS NULL OR length(system) BETWEEN 1 AND 255),
  value           text NOT NULL CHECK (length(value) BETWEEN 1 AND 255),
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT observation_identifiers_unique UNIQUE NULLS NOT DISTINCT (organization_id, system, value)
);
-- Reading an Observation shows its identifiers; a search by bare value (any system) scans the
-- organization's values.
CREATE INDEX observation_identifiers_observation_idx ON observation_identifiers (observation_id);
CREATE INDEX observation_identifiers_value_idx ON observation_identifiers (organization_id, value);

-- Patient search by identifier reads the MRN within an organization (its unique index serves);
-- by name it also matches the start of the middle name, folded like the first and last names.
ALTER TABLE patients
  ADD COLUMN middle_name_key text GENERATED ALWAYS AS (patient_search_fold(middle_name)) STORED;
CREATE INDEX patients_middle_name_key_idx ON patients (middle_name_key text_pattern_ops);
