-- One word, one meaning (issue 23): "session" is a sign-in session only. The sign-in flow's
-- pending challenges (what Cognito's protocol carries in its `Session` field between
-- InitiateAuth and RespondToAuthChallenge) are pending challenges, keyed by their token's hash.
-- The protocol's field keeps its name on the wire.
ALTER TABLE identity.challenge_sessions RENAME TO pending_challenges;
ALTER TABLE identity.pending_challenges RENAME COLUMN session_hash TO token_hash;
ALTER INDEX identity.challenge_sessions_expiry_idx RENAME TO pending_challenges_expiry_idx;
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.conname AS name FROM pg_constraint c
     WHERE c.conrelid = 'identity.pending_challenges'::regclass AND c.conname LIKE 'challenge_sessions%'
  LOOP
    EXECUTE format('ALTER TABLE identity.pending_challenges RENAME CONSTRAINT %I TO %I',
                   r.name, replace(r.name, 'challenge_sessions', 'pending_challenges'));
  END LOOP;
END
$$;
