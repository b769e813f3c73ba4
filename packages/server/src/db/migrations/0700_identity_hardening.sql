-- The user pool, hardened (no enumeration, no lock-out, messages that expire), and the
-- organization-wide "require MFA" setting.

-- One spelling of an address for lookups and uniqueness, computed by the application
-- (normalizeEmail: Unicode NFKC, then lower case). PostgreSQL's lower() folds only ASCII under the
-- C locale, so SQL never normalises by itself: it compares values the application normalised.
-- Existing rows were lower-cased by the application when created; NFKC is applied here once.
ALTER TABLE identity.users ADD COLUMN email_key text;
UPDATE identity.users SET email_key = lower(normalize(btrim(email), NFKC));
ALTER TABLE identity.users ALTER COLUMN email_key SET NOT NULL;
DROP INDEX identity.users_email_key;
CREATE UNIQUE INDEX users_email_key_key ON identity.users (email_key);

-- A password reset asked for an address that has no account (or one that cannot reset yet) gets
-- this stand-in for a code, so that ConfirmForgotPassword answers exactly as for a real account:
-- a wrong code while one is live, an expired code otherwise.
CREATE TABLE identity.reset_decoys (
  account_key     text PRIMARY KEY,
  failed_attempts integer NOT NULL DEFAULT 0,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- The operator marks delivered messages (npm run outbox -- --mark-delivered); every message is
-- deleted after 7 days either way.
ALTER TABLE identity.outbox ADD COLUMN delivered_at timestamptz;
CREATE INDEX outbox_created_idx ON identity.outbox (created_at);

-- Organization-wide MFA: every user of the organization sets up MFA at the next sign-in.
ALTER TABLE organizations ADD COLUMN require_mfa boolean NOT NULL DEFAULT false;
