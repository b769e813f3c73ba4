-- Finding patients: search by name without regard to case or accents ("jose" finds "José",
-- "ORSTED" finds "Ørsted"), then sort and page on the server.
--
-- The folding is plain SQL (Unicode decomposition, combining marks removed, a few letters that do
-- not decompose spelled out, then lower case), so it needs no extension: `unaccent` ships with
-- the embedded PostgreSQL, but creating it needs rights a managed database may not grant the
-- portal. The function is IMMUTABLE, so generated columns and indexes can use it, and the
-- service folds the typed search term with the same function: one definition of "equal".
CREATE FUNCTION patient_search_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(
    replace(replace(replace(replace(replace(replace(
      translate(
        regexp_replace(normalize(t, NFD), U&'[\0300-\036F]', '', 'g'),
        U&'\00D8\00F8\0141\0142\0110\0111\00D0\00F0\00DE\00FE\0131',
        'OoLlDdDdTti'),
      U&'\00DF', 'ss'), U&'\00C6', 'ae'), U&'\00E6', 'ae'), U&'\0152', 'oe'), U&'\0153', 'oe'), U&'\1E9E', 'ss')
  );

ALTER TABLE patients
  ADD COLUMN first_name_key text GENERATED ALWAYS AS (patient_search_fold(first_name)) STORED,
  ADD COLUMN last_name_key text GENERATED ALWAYS AS (patient_search_fold(last_name)) STORED;

-- A search word matches the start of the first or the last name: two prefix ranges
-- (text_pattern_ops, so LIKE 'abc%' uses them whatever the database's collation).
CREATE INDEX patients_last_name_key_idx ON patients (last_name_key text_pattern_ops);
CREATE INDEX patients_first_name_key_idx ON patients (first_name_key text_pattern_ops);
-- The name sort (either direction) walks this one instead of sorting every patient.
CREATE INDEX patients_name_sort_idx ON patients (last_name_key, first_name_key, id);
CREATE INDEX patients_date_of_birth_idx ON patients (date_of_birth, id);
CREATE INDEX patients_org_last_name_key_idx ON patients (organization_id, last_name_key, first_name_key, id);
