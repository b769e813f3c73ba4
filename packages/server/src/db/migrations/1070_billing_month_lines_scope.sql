-- What a billing request reads of every kept line in its scope, in one narrow index
-- (modules/billing/billing.lines.repository.ts).
--
-- Before each page, a request finds the stale lines of every enrolled patient in scope, and the
-- month report counts and totals all of them. Both read each line's row from the heap: about 2,500
-- pages at 10,000 patients, as a line carries its report row and outlook (two JSON documents) and
-- the table keeps half of each page free (fillfactor 50). Those two reads took about 40 ms of the
-- report's 60 (`npm run bench:growth`, 10,000 patients). With the few columns they need in an
-- index, in patient order, they are index-only scans of about 3.5 MB: about 9 and 4 ms.
--
-- The price: version_seen and fresh_until change whenever a line is computed again, so that
-- rewrite is no longer a HOT update; it writes an entry in each index of the table. Lines are
-- rewritten at most a few times a day each, mostly by the background refresh.
CREATE INDEX billing_month_lines_scope_idx ON billing_month_lines (month, patient_id)
  INCLUDE (organization_id, version_seen, fresh_until, rules, codes, units);

-- An index-only scan skips the heap only on pages the visibility map marks all-visible, and every
-- rewrite unmarks its page until the table is vacuumed. At the default thresholds (a fifth of the
-- table changed) a day's rewrites would leave most pages unmarked; vacuum this small table after
-- every 2 % instead.
ALTER TABLE billing_month_lines SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
