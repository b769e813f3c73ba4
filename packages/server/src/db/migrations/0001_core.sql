-- Core portal tables for every entity of the spec (section 3).
-- Integer identity keys keep URLs short (/patients/42); check constraints mirror the
-- enumerations of packages/contracts so bad data cannot get in even past the API.

CREATE TABLE roles (
  name        text PRIMARY KEY,
  description text NOT NULL
);
INSERT INTO roles (name, description) VALUES
  ('admin', 'Administrator: users, organizations, devices, audit log, database'),
  ('provider', 'Clinical staff: patients of their own organization');

CREATE TABLE organizations (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organizations_name_key ON organizations (lower(btrim(name)));

CREATE TABLE users (
  id                  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email               text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  role                text NOT NULL DEFAULT 'provider' REFERENCES roles (name),
  status              text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  first_name          text CHECK (length(first_name) <= 100),
  middle_name         text CHECK (length(middle_name) <= 100),
  last_name           text CHECK (length(last_name) <= 100),
  title               text CHECK (length(title) <= 100),
  organization_id     integer REFERENCES organizations (id),
  -- Link to the user pool: the username the pool knows and the immutable subject of its tokens.
  cognito_username    text UNIQUE,
  cognito_sub         text UNIQUE,
  mfa_enabled         boolean NOT NULL DEFAULT false,
  password_changed_at timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_organization_idx ON users (organization_id);

CREATE TABLE patients (
  id                  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first_name          text NOT NULL CHECK (length(btrim(first_name)) BETWEEN 1 AND 100),
  middle_name         text CHECK (length(middle_name) <= 100),
  last_name           text NOT NULL CHECK (length(btrim(last_name)) BETWEEN 1 AND 100),
  date_of_birth       date,
  gender              text CHECK (gender IN ('male', 'female', 'other')),
  organization_id     integer NOT NULL REFERENCES organizations (id),
  primary_provider_id integer REFERENCES users (id),
  enrolled_rpm        boolean NOT NULL DEFAULT false,
  enrollment_status   text CHECK (length(enrollment_status) <= 50),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX patients_organization_idx ON patients (organization_id, last_name, first_name);

CREATE TABLE insurances (
  id                     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id             integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  type                   text NOT NULL CHECK (type IN ('Medicare', 'Medicaid', 'Private', 'Other')),
  provider_name          text CHECK (length(provider_name) <= 200),
  policy_number          text CHECK (length(policy_number) <= 100),
  policyholder           text CHECK (length(policyholder) <= 200),
  policyholder_birthdate date,
  -- Policyholder fields exist only for Private insurance (spec section 3).
  CONSTRAINT insurances_policyholder_private CHECK (
    type = 'Private' OR (policyholder IS NULL AND policyholder_birthdate IS NULL)
  )
);
CREATE INDEX insurances_patient_idx ON insurances (patient_id);

CREATE TABLE devices (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id  text NOT NULL CHECK (length(btrim(device_id)) BETWEEN 1 AND 100),
  model      text CHECK (length(model) <= 100),
  type       text CHECK (length(type) <= 100),
  -- A single column makes "a device belongs to at most one patient" true by construction.
  patient_id integer REFERENCES patients (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX devices_device_id_key ON devices (lower(btrim(device_id)));
CREATE INDEX devices_patient_idx ON devices (patient_id);

CREATE TABLE vitals (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  device_id  integer REFERENCES devices (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  systolic   smallint NOT NULL CHECK (systolic BETWEEN 40 AND 300),
  diastolic  smallint NOT NULL CHECK (diastolic BETWEEN 20 AND 200),
  pulse      smallint CHECK (pulse BETWEEN 20 AND 300)
);
-- Newest-first pages per patient are an index range scan, however many readings there are.
CREATE INDEX vitals_patient_time_idx ON vitals (patient_id, created_at DESC, id DESC);

CREATE TABLE notes (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  author_id  integer REFERENCES users (id),
  content    text NOT NULL CHECK (length(btrim(content)) BETWEEN 1 AND 10000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notes_patient_time_idx ON notes (patient_id, created_at DESC, id DESC);

CREATE TABLE tracking_sessions (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id       integer NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  user_id          integer REFERENCES users (id),
  date             date NOT NULL,
  duration_minutes integer NOT NULL DEFAULT 0 CHECK (duration_minutes BETWEEN 0 AND 1440),
  notes            text CHECK (length(notes) <= 5000),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tracking_sessions_patient_idx ON tracking_sessions (patient_id, date DESC, id DESC);

-- The portal's own sessions. Only a SHA-256 of the random session id is stored, so a copy of
-- this table cannot be replayed as cookies.
CREATE TABLE sessions (
  id_hash      bytea PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  ip_address   text,
  user_agent   text
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE audit_logs (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "timestamp"    timestamptz NOT NULL DEFAULT clock_timestamp(),
  user_id        integer,
  ip_address     text,
  action         text NOT NULL,
  resource_type  text,
  resource_id    text,
  details        jsonb,
  target_user_id integer,
  outcome        text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
  reason         text,
  user_agent     text,
  request_id     text
);
CREATE INDEX audit_logs_time_idx ON audit_logs ("timestamp" DESC, id DESC);

-- The audit trail is append-only, enforced by the database whatever the application does.
CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_logs is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_logs_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_logs
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_logs_no_truncate
  BEFORE TRUNCATE ON audit_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
