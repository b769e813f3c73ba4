-- FHIR Bulk Data export (issue 27). An export is a row here and a job on the queue; the job writes
-- its NDJSON files into the database, in chunks of about a megabyte, rather than into a directory:
-- instances share nothing but PostgreSQL, so whichever instance a client's download reaches can
-- stream the file, a backup holds exports like everything else, and deleting an export deletes
-- its files in the same transaction (ON DELETE CASCADE). The cost, a few hundred megabytes of
-- table for a day at most, is bounded by the 24-hour retention.
CREATE TABLE bulk_exports (
  id               uuid PRIMARY KEY,
  organization_id  integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- Who asked: only they (or an administrator) may poll, download or cancel.
  requester_kind   text NOT NULL CHECK (requester_kind IN ('staff', 'source', 'client')),
  requester_id     text NOT NULL CHECK (length(requester_id) BETWEEN 1 AND 200),
  -- org-{id}, provider-{id}, or null for Patient/$export (every patient of the organization).
  group_id         text CHECK (group_id IS NULL OR group_id ~ '^(org|provider)-[0-9]+$'),
  types            text[] NOT NULL CHECK (cardinality(types) BETWEEN 1 AND 10),
  since            timestamptz,
  status           text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'complete', 'failed', 'cancelled')),
  progress         text CHECK (length(progress) <= 200),
  error            text CHECK (length(error) <= 1000),
  request_url      text NOT NULL CHECK (length(request_url) <= 4000),
  -- The instant the export reads the data as of (the manifest's transactionTime).
  transaction_time timestamptz,
  patient_count    integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  expires_at       timestamptz
);
-- A requester's exports in flight (counted at each kick-off).
CREATE INDEX bulk_exports_requester_idx ON bulk_exports (requester_kind, requester_id) WHERE status IN ('queued', 'running');
CREATE INDEX bulk_exports_created_idx ON bulk_exports (created_at);

CREATE TABLE bulk_export_files (
  export_id  uuid NOT NULL REFERENCES bulk_exports (id) ON DELETE CASCADE,
  file_name  text NOT NULL CHECK (file_name ~ '^[A-Za-z]+-[0-9]{1,4}\.ndjson$'),
  type       text NOT NULL,
  seq        integer NOT NULL CHECK (seq >= 1),
  line_count integer NOT NULL CHECK (line_count >= 0),
  PRIMARY KEY (export_id, file_name)
);

CREATE TABLE bulk_export_chunks (
  export_id uuid NOT NULL,
  file_name text NOT NULL,
  seq       integer NOT NULL CHECK (seq >= 0),
  -- Whole NDJSON lines, UTF-8; a chunk never splits a line, so each one is valid NDJSON itself.
  content   bytea NOT NULL,
  PRIMARY KEY (export_id, file_name, seq),
  FOREIGN KEY (export_id, file_name) REFERENCES bulk_export_files (export_id, file_name) ON DELETE CASCADE
);

-- The jobs (see 0911: the runtime role creates no queue itself). An export runs once; if its
-- instance dies mid-way, the job expires and its one retry starts the export over.
SELECT pgboss.create_queue('fhir-bulk-export', '{"policy":"standard","retryLimit":1,"retryDelay":10,"expireInSeconds":3600}');
-- Retention: one run per tick across instances.
SELECT pgboss.create_queue('fhir-bulk-export-retention', '{"policy":"singleton","retryLimit":2,"expireInSeconds":600}');
