-- SMART Backend Services (issue 27): system clients of an organization authenticate with a JWT
-- signed by their private key and get short access tokens with SMART v2 system scopes. They
-- replace static FHIR read keys: ingestion sources with can_read keep their rows, so admins can
-- see which systems to re-register, but no longer authenticate a read (the code refuses them).

CREATE TABLE smart_clients (
  -- The OAuth client_id: the `iss` and `sub` of the client's assertions.
  id              uuid PRIMARY KEY,
  name            text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  organization_id integer NOT NULL REFERENCES organizations (id),
  -- Where the client publishes its public keys (https), or the keys pasted by the admin: one of the two.
  jwks_url        text CHECK (jwks_url IS NULL OR (length(jwks_url) <= 2000 AND jwks_url ~ '^https?://')),
  jwks            jsonb,
  scopes          text[] NOT NULL CHECK (cardinality(scopes) BETWEEN 1 AND 20),
  -- A client allowed to write Observations writes through an ingestion source of its own (the
  -- readings' source and their rejections belong to it); revoking the client revokes it.
  source_id       uuid REFERENCES ingestion_sources (id),
  created_by      integer REFERENCES users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  revoked_at      timestamptz,
  CONSTRAINT smart_clients_one_key_source CHECK ((jwks_url IS NULL) <> (jwks IS NULL))
);
CREATE INDEX smart_clients_organization_idx ON smart_clients (organization_id);

-- Every assertion id a client used, until its assertion expires: an assertion is accepted once.
-- Expired ones are pruned (an assertion past its exp is refused anyway).
CREATE TABLE smart_assertion_ids (
  client_id  uuid NOT NULL REFERENCES smart_clients (id) ON DELETE CASCADE,
  jti        text NOT NULL CHECK (length(jti) BETWEEN 1 AND 255),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (client_id, jti)
);
CREATE INDEX smart_assertion_ids_expiry_idx ON smart_assertion_ids (expires_at);

-- Access tokens, stored only as the SHA-256 of the token (256 random bits: no stretching needed).
CREATE TABLE smart_access_tokens (
  token_hash      bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  client_id       uuid NOT NULL REFERENCES smart_clients (id) ON DELETE CASCADE,
  organization_id integer NOT NULL REFERENCES organizations (id),
  scopes          text[] NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL
);
CREATE INDEX smart_access_tokens_expiry_idx ON smart_access_tokens (expires_at);
CREATE INDEX smart_access_tokens_client_idx ON smart_access_tokens (client_id);

-- A client's write source is the client's: its secret is made and thrown away at registration,
-- and rotating it would hand out a static key that writes as the client without its signed
-- assertions. Refused here whichever path asks (the service answers the refusal as a conflict).
CREATE FUNCTION rpm_refuse_smart_source_secret() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM smart_clients WHERE source_id = NEW.id) THEN
    RAISE EXCEPTION 'ingestion source % writes for a SMART client; its secret is not replaced', NEW.id
      USING ERRCODE = 'RPM02';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER ingestion_sources_smart_secret
  BEFORE UPDATE OF secret_hash ON ingestion_sources
  FOR EACH ROW WHEN (OLD.secret_hash IS DISTINCT FROM NEW.secret_hash)
  EXECUTE FUNCTION rpm_refuse_smart_source_secret();
