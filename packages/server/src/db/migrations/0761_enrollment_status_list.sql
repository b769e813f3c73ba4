-- Enrollment status becomes one of a fixed list (Active, Paused, Discharged, Declined) instead of
-- free text, where "Active", "active" and "Enrolled" meant the same and could not be filtered.
--
-- Existing values are mapped case-insensitively, with the usual synonyms. A value that maps to
-- none of them is not thrown away: the status becomes empty and the old text is kept in
-- enrollment_status_legacy, which the patient page shows until someone picks a status.

ALTER TABLE patients ADD COLUMN enrollment_status_legacy text CHECK (length(enrollment_status_legacy) <= 50);

UPDATE patients SET enrollment_status = CASE lower(btrim(enrollment_status))
    WHEN 'active' THEN 'Active'
    WHEN 'enrolled' THEN 'Active'
    WHEN 'enrolling' THEN 'Active'
    WHEN 'paused' THEN 'Paused'
    WHEN 'on hold' THEN 'Paused'
    WHEN 'hold' THEN 'Paused'
    WHEN 'inactive' THEN 'Paused'
    WHEN 'discharged' THEN 'Discharged'
    WHEN 'unenrolled' THEN 'Discharged'
    WHEN 'completed' THEN 'Discharged'
    WHEN 'declined' THEN 'Declined'
    WHEN 'refused' THEN 'Declined'
  END,
  enrollment_status_legacy = CASE
    WHEN lower(btrim(enrollment_status)) IN ('active', 'enrolled', 'enrolling', 'paused', 'on hold', 'hold',
      'inactive', 'discharged', 'unenrolled', 'completed', 'declined', 'refused') THEN NULL
    ELSE enrollment_status
  END
WHERE enrollment_status IS NOT NULL;

-- Blank text was never a status.
UPDATE patients SET enrollment_status_legacy = NULL WHERE btrim(enrollment_status_legacy) = '';

ALTER TABLE patients ADD CONSTRAINT patients_enrollment_status_list
  CHECK (enrollment_status IN ('Active', 'Paused', 'Discharged', 'Declined'));

CREATE INDEX patients_status_idx ON patients (enrollment_status, last_name_key, first_name_key, id);
