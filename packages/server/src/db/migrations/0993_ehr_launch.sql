-- Launch from the EHR (issue 27): which EHR may launch the portal for an organization, and the
-- short-lived state of each launch.

-- One EHR per organization, and one organization per EHR: the `iss` an EHR sends names the
-- organization whose settings (client id, identifier system) the launch uses. The launch route
-- only ever talks to an `iss` listed here, so a crafted launch cannot make the server fetch an
-- address of its choosing.
CREATE TABLE ehr_launch_settings (
  organization_id integer PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  iss             text NOT NULL UNIQUE CHECK (length(iss) BETWEEN 1 AND 500 AND iss !~ '\s'),
  client_id       text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 255),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      integer REFERENCES users (id) ON DELETE SET NULL
);

-- One row per launch in progress, bound to the browser that started it: `id` is the SHA-256 of
-- the random value in that browser's launch cookie (the cookie value itself is never stored).
-- `data` is the SMART client's own storage (state, PKCE verifier) until the code is exchanged;
-- then it is cleared and `result` holds what the callback learnt (the EHR patient's identifiers),
-- reachable with `result_id` (the SHA-256 of the opaque id in the page's address) and used once.
-- Rows live minutes; expired ones are deleted by each new launch.
CREATE TABLE ehr_launch_states (
  id              text PRIMARY KEY CHECK (length(id) = 64),
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  state_key       text,
  data            jsonb,
  result_id       text UNIQUE CHECK (result_id IS NULL OR length(result_id) = 64),
  result          jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL
);
CREATE INDEX ehr_launch_states_expires_idx ON ehr_launch_states (expires_at);
