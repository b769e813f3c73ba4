-- Tamper evidence for the audit log: every committed audit record is linked into a SHA-256 hash
-- chain, hash(n) = sha256(hash(n-1) || row_hash(record n)), kept in its own append-only table.
--
-- The link is made by a DEFERRED constraint trigger, i.e. at commit time, under a transaction-level
-- advisory lock. Writers therefore serialize only for the last instant of their commit, not for
-- their whole transaction, and the chain order is the commit order (so a record from a long
-- transaction that commits late never "appears" behind already-chained ones).

-- The canonical form of a record: explicit columns, the timestamp in UTC, so that the hash does
-- not depend on the session's TimeZone or on column order.
CREATE FUNCTION audit_row_hash(a audit_logs) RETURNS bytea LANGUAGE sql STABLE AS $$
  SELECT sha256(convert_to(jsonb_build_array(
    a.id, to_char(a."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), a.user_id, a.ip_address,
    a.action, a.resource_type, a.resource_id, a.details, a.target_user_id, a.outcome, a.reason,
    a.user_agent, a.request_id)::text, 'UTF8'))
$$;

CREATE TABLE audit_chain (
  seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  log_id    bigint NOT NULL UNIQUE,
  prev_hash bytea NOT NULL,
  hash      bytea NOT NULL
);

CREATE FUNCTION audit_chain_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev bytea;
BEGIN
  PERFORM pg_advisory_xact_lock(727003);
  SELECT hash INTO prev FROM audit_chain ORDER BY seq DESC LIMIT 1;
  prev := coalesce(prev, '\x'::bytea);
  INSERT INTO audit_chain (log_id, prev_hash, hash)
  VALUES (NEW.id, prev, sha256(prev || audit_row_hash(NEW)));
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER audit_logs_chain
  AFTER INSERT ON audit_logs
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION audit_chain_append();

CREATE TRIGGER audit_chain_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_chain_no_truncate
  BEFORE TRUNCATE ON audit_chain
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();

-- Records written before this migration join the chain in id order.
DO $$
DECLARE
  r audit_logs;
  prev bytea := '\x'::bytea;
BEGIN
  FOR r IN SELECT * FROM audit_logs ORDER BY id LOOP
    INSERT INTO audit_chain (log_id, prev_hash, hash) VALUES (r.id, prev, sha256(prev || audit_row_hash(r)));
    prev := sha256(prev || audit_row_hash(r));
  END LOOP;
END;
$$;
