-- The audit chain becomes keyed: each link is an HMAC whose key lives outside the database, so
-- whoever can write to the database can no longer recompute the links after changing a record.
-- A key the database never sees cannot be used by a trigger, so the links are now made by the
-- portal's sealer (modules/audit/sealer.ts), which explains the design. Here:
--   * audit_unsealed: the queue of committed records not linked yet, filled by a trigger in the
--     same transaction as the record itself (no lock, no ordering: just one more row);
--   * audit_chain: the keyed links, one per sealed record, at a dense position 1, 2, 3, ...;
--   * the unkeyed SHA-256 chain of earlier versions is kept, read-only, for the record, and the
--     records it covered are queued so that the sealer links them with the key at first start.

DROP TRIGGER audit_logs_chain ON audit_logs;
DROP FUNCTION audit_chain_append();

ALTER TABLE audit_chain RENAME TO audit_chain_sha256_legacy;
ALTER INDEX audit_chain_pkey RENAME TO audit_chain_sha256_legacy_pkey;
ALTER INDEX audit_chain_log_id_key RENAME TO audit_chain_sha256_legacy_log_id_key;
ALTER INDEX audit_chain_position_key RENAME TO audit_chain_sha256_legacy_position_key;

CREATE TABLE audit_chain (
  position  bigint PRIMARY KEY CHECK (position > 0),
  log_id    bigint NOT NULL UNIQUE,
  prev_hash bytea NOT NULL,
  hash      bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER audit_chain_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_chain_no_truncate
  BEFORE TRUNCATE ON audit_chain
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();

CREATE TABLE audit_unsealed (
  log_id    bigint PRIMARY KEY,
  queued_at timestamptz NOT NULL DEFAULT now()
);

-- Per statement, so that a bulk insert queues its records in one insert.
CREATE FUNCTION audit_logs_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_unsealed (log_id) SELECT id FROM inserted;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_logs_enqueue
  AFTER INSERT ON audit_logs
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_enqueue();

INSERT INTO audit_unsealed (log_id) SELECT id FROM audit_logs;
