-- The user pool's install secrets (token-signing private key, admin-call secret, data key) are
-- stored encrypted with a master key kept outside the database (AES-256-GCM, identity/secrets.ts).
-- Existing clear values are encrypted in place by the portal at its next start, which then
-- clears the old columns; the old columns stay (nullable) only for that upgrade step.
ALTER TABLE identity.settings
  ADD COLUMN admin_secret_sealed bytea,
  ADD COLUMN signing_private_sealed bytea,
  ADD COLUMN data_key_sealed bytea,
  ALTER COLUMN admin_secret_access_key DROP NOT NULL,
  ALTER COLUMN signing_private_jwk DROP NOT NULL,
  ALTER COLUMN data_key DROP NOT NULL;
ALTER TABLE identity.settings ADD CONSTRAINT settings_keys_present CHECK (
  (admin_secret_sealed IS NOT NULL OR admin_secret_access_key IS NOT NULL)
  AND (signing_private_sealed IS NOT NULL OR signing_private_jwk IS NOT NULL)
  AND (data_key_sealed IS NOT NULL OR data_key IS NOT NULL));
