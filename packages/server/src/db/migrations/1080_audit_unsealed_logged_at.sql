-- The sealer's queue carries each record's time, the month tables' key (modules/audit/sealer.ts).
--
-- The sealer reads its batch of queued records with their digests. Joined to audit_logs by id
-- alone, the planner costed the join from the queue's statistics, which are whatever size the
-- queue had when last analyzed (thousands after a busy minute, none a second later). Believing a
-- few thousand, it read every month table whole and hashed them: 0.3 to 1.3 s a tick at 2 million
-- records (`npm run bench:billing-growth` with auto_explain), growing with every month kept, while
-- the queue held a few hundred rows. With the record's time beside its id, each queued record is
-- one probe of one month table's primary key (id, "timestamp"), whatever the statistics say.
--
-- The lock keeps records from being added while the queue is filled in: an insert waits for this
-- migration's commit and then runs the new trigger body, so no queued record lacks its time.
LOCK TABLE audit_logs IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE audit_unsealed ADD COLUMN logged_at timestamptz;
UPDATE audit_unsealed u SET logged_at = a."timestamp" FROM audit_logs a WHERE a.id = u.log_id;
-- A queue entry whose record is gone (the sealer drops it as an orphan) keeps a time of its own.
UPDATE audit_unsealed SET logged_at = queued_at WHERE logged_at IS NULL;
ALTER TABLE audit_unsealed ALTER COLUMN logged_at SET NOT NULL;

CREATE OR REPLACE FUNCTION audit_logs_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_unsealed (log_id, logged_at) SELECT id, "timestamp" FROM inserted;
  RETURN NULL;
END;
$$;
