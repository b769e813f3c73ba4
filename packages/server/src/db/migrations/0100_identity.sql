CREATE SCHEMA identity;

-- The built-in Cognito-compatible user pool keeps all of its state here, apart from the portal's
-- tables, so that the portal (and its DB inspector) never needs to read it. Secrets are stored only
-- in forms the pool needs: SRP verifiers instead of passwords, hashes of every bearer value
-- (refresh tokens, challenge sessions, reset codes), TOTP secrets encrypted.

-- One row, created by the first instance to start: the pool's names and its install secrets.
CREATE TABLE identity.settings (
  singleton               boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  pool_id                 text NOT NULL,
  client_id               text NOT NULL,
  -- SigV4 credentials our own server uses for the admin API.
  admin_access_key_id     text NOT NULL,
  admin_secret_access_key text NOT NULL,
  -- RS256 token signing key (JWK, private and public halves).
  signing_kid             text NOT NULL,
  signing_private_jwk     jsonb NOT NULL,
  signing_public_jwk      jsonb NOT NULL,
  -- 32 random bytes: AES-256-GCM key for TOTP secrets and HMAC key for codes and decoy users.
  data_key                bytea NOT NULL CHECK (length(data_key) = 32),
  created_at              timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity.users (
  -- Cognito's username for pools that sign in by email: a UUID, also the token subject.
  username                      uuid PRIMARY KEY,
  email                         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_verified                boolean NOT NULL DEFAULT true,
  status                        text NOT NULL
                                CHECK (status IN ('FORCE_CHANGE_PASSWORD', 'CONFIRMED', 'RESET_REQUIRED')),
  enabled                       boolean NOT NULL DEFAULT true,
  srp_salt                      text NOT NULL,
  srp_verifier                  text NOT NULL,
  temporary_password_expires_at timestamptz,
  totp_secret                   bytea,      -- encrypted, verified
  totp_pending_secret           bytea,      -- encrypted, associated but not verified yet
  totp_last_step                bigint,     -- last accepted time step: a code works once
  mfa_enabled                   boolean NOT NULL DEFAULT false,
  mfa_preferred                 boolean NOT NULL DEFAULT false,
  -- Access tokens issued before this instant are refused (global sign-out).
  tokens_valid_after            timestamptz NOT NULL DEFAULT '-infinity',
  password_changed_at           timestamptz,
  created_at                    timestamptz NOT NULL DEFAULT now(),
  updated_at                    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON identity.users (lower(email));
CREATE INDEX users_listing_idx ON identity.users (created_at, username);

-- Sign-in challenges in flight, looked up by the hash of their opaque session value.
CREATE TABLE identity.challenge_sessions (
  session_hash    bytea PRIMARY KEY,
  -- Null for the decoy challenge answered to an unknown user.
  username        uuid REFERENCES identity.users (username) ON DELETE CASCADE,
  challenge       text NOT NULL,
  state           jsonb NOT NULL DEFAULT '{}',
  failed_attempts integer NOT NULL DEFAULT 0,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX challenge_sessions_expiry_idx ON identity.challenge_sessions (expires_at);

-- One row per sign-in: its id is the origin_jti of every token issued from that sign-in.
CREATE TABLE identity.refresh_tokens (
  id          uuid PRIMARY KEY,
  token_hash  bytea NOT NULL UNIQUE,
  username    uuid NOT NULL REFERENCES identity.users (username) ON DELETE CASCADE,
  client_id   text NOT NULL,
  auth_time   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user_idx ON identity.refresh_tokens (username);

-- At most one live reset code per user; a new request replaces it.
CREATE TABLE identity.reset_codes (
  username        uuid PRIMARY KEY REFERENCES identity.users (username) ON DELETE CASCADE,
  code_hash       bytea NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- Throttling events (failed passwords and codes per account, calls per IP, reset mails), kept in
-- the database so that every instance sees the same counts.
CREATE TABLE identity.attempts (
  id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bucket text NOT NULL,
  at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX attempts_bucket_idx ON identity.attempts (bucket, at);

-- Messages the pool would have mailed, when no SMTP server is configured: the operator delivers
-- them by hand.
CREATE TABLE identity.outbox (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('invitation', 'reset-code')),
  recipient  text NOT NULL,
  subject    text NOT NULL,
  body       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_recipient_idx ON identity.outbox (lower(recipient), id);
