-- One word, one meaning (issue 23): "session" is a sign-in session only. The minutes a care team
-- member logs on a patient are tracking entries, so their table and everything named after it
-- says so. The API route (`/api/patients/{id}/sessions`) and the spec's "Tracking session" stay as
-- the spec words them, and audit records keep the resource type they were written with
-- (`tracking_session`): they are sealed history, and the audit log's answers stay the same.
--
-- Trigger functions reach the row through NEW/OLD, never by the table's name, so a rename keeps
-- them working; only their names change here.
ALTER TABLE tracking_sessions RENAME TO tracking_entries;

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.conname AS name
      FROM pg_constraint c
     WHERE c.conrelid = 'tracking_entries'::regclass AND c.conname LIKE 'tracking_sessions%'
  LOOP
    EXECUTE format('ALTER TABLE tracking_entries RENAME CONSTRAINT %I TO %I',
                   r.name, replace(r.name, 'tracking_sessions', 'tracking_entries'));
  END LOOP;
  -- Indexes not renamed with a constraint above (plain indexes).
  FOR r IN
    SELECT i.relname AS name
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = 'tracking_entries'::regclass AND i.relname LIKE 'tracking_sessions%'
  LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name, replace(r.name, 'tracking_sessions', 'tracking_entries'));
  END LOOP;
  FOR r IN
    SELECT t.tgname AS name
      FROM pg_trigger t
     WHERE t.tgrelid = 'tracking_entries'::regclass AND NOT t.tgisinternal AND t.tgname LIKE 'tracking_sessions%'
  LOOP
    EXECUTE format('ALTER TRIGGER %I ON tracking_entries RENAME TO %I',
                   r.name, replace(r.name, 'tracking_sessions', 'tracking_entries'));
  END LOOP;
  FOR r IN
    SELECT s.relname AS name
      FROM pg_class s
     WHERE s.relkind = 'S' AND s.relname LIKE 'tracking_sessions%'
       AND s.relnamespace = 'public'::regnamespace
  LOOP
    EXECUTE format('ALTER SEQUENCE %I RENAME TO %I', r.name, replace(r.name, 'tracking_sessions', 'tracking_entries'));
  END LOOP;
END
$$;

ALTER FUNCTION tracking_sessions_keep_closed_months() RENAME TO tracking_entries_keep_closed_months;
