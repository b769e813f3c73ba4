-- EHR integration (issue 27), the part every integration shares: the identifier an EHR knows a
-- patient by. An organization names the identifier system its EHR uses for patients (the MRN's
-- system URI, such as `urn:oid:1.2.36.146.595.217.0.1` or `https://hospital.example/mrn`); each
-- patient may carry their value in that system. FHIR Patient search by `identifier`, the
-- Patient resource's `identifier` and matching an EHR launch's patient all read these two.
ALTER TABLE organizations
  ADD COLUMN patient_identifier_system text
    CHECK (patient_identifier_system IS NULL OR (length(patient_identifier_system) BETWEEN 1 AND 255
           AND patient_identifier_system !~ '\s'));

ALTER TABLE patients
  ADD COLUMN mrn text CHECK (mrn IS NULL OR (length(mrn) BETWEEN 1 AND 64 AND mrn = btrim(mrn)));

-- One patient per MRN within an organization: a launch or a search by identifier finds at most one.
CREATE UNIQUE INDEX patients_organization_mrn_idx ON patients (organization_id, mrn) WHERE mrn IS NOT NULL;
