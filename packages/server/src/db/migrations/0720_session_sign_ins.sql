-- A portal session belongs to one sign-in of the user pool and to one access token.
--  * token_jti: the access token that opened the session; unique, so a token opens at most one
--    session (a replayed token is refused).
--  * sign_in_id: the pool's sign-in (origin_jti), so that logout can revoke that sign-in and a
--    password change can keep the session that made it while ending the others.
--  * end_reason: why a session ended early (logout, password reset, session limit, ...).
-- Rows made before this migration keep nulls: they can still be used until they expire.
ALTER TABLE sessions
  ADD COLUMN token_jti  text CHECK (length(token_jti) <= 200),
  ADD COLUMN sign_in_id text CHECK (length(sign_in_id) <= 200),
  ADD COLUMN end_reason text CHECK (length(end_reason) <= 50);

CREATE UNIQUE INDEX sessions_token_jti_key ON sessions (token_jti);
-- Live sessions of a user in age order (the per-user cap ends the oldest).
CREATE INDEX sessions_user_live_idx ON sessions (user_id, created_at) WHERE revoked_at IS NULL;
-- Housekeeping deletes rows a day past their end.
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
CREATE INDEX sessions_last_seen_idx ON sessions (last_seen_at);
CREATE INDEX sessions_revoked_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
