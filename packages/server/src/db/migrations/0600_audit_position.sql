-- A dense, gapless position for every committed audit record, in commit order: 1, 2, 3, ...
-- The chain trigger already reads the previous link under its lock, so position = previous + 1
-- costs nothing extra, and unlike an identity value it has no holes (a rolled-back commit takes
-- its link with it). The audit log page at any offset is then an index range on position, and
-- the total is max(position): both exact and independent of the log's size.

ALTER TABLE audit_chain ADD COLUMN position bigint;

-- Links written before this migration are numbered once, here; the table is otherwise append-only.
ALTER TABLE audit_chain DISABLE TRIGGER audit_chain_no_update_delete;
UPDATE audit_chain c SET position = n.position
  FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS position FROM audit_chain) n
 WHERE n.seq = c.seq;
ALTER TABLE audit_chain ENABLE TRIGGER audit_chain_no_update_delete;

ALTER TABLE audit_chain ALTER COLUMN position SET NOT NULL;
CREATE UNIQUE INDEX audit_chain_position_key ON audit_chain (position);

CREATE OR REPLACE FUNCTION audit_chain_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev bytea;
  prev_position bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(727003);
  SELECT hash, position INTO prev, prev_position FROM audit_chain ORDER BY seq DESC LIMIT 1;
  prev := coalesce(prev, '\x'::bytea);
  INSERT INTO audit_chain (log_id, prev_hash, hash, position)
  VALUES (NEW.id, prev, sha256(prev || audit_row_hash(NEW)), coalesce(prev_position, 0) + 1);
  RETURN NULL;
END;
$$;
