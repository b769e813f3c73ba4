-- An organization's observation retention is set by its admins now (PUT
-- /api/organizations/{id}/settings), so the column's bounds become the ones billing needs: at
-- least 24 months, the time a Medicare claim can be filed (12 months after the service) and then
-- reopened for any reason (a year); the reasons are in packages/contracts (partitions.ts,
-- OBSERVATION_RETENTION_MONTHS_MIN), and a test holds the two equal. A shorter retention set
-- before (by hand: there was no way to set it) becomes the floor, which keeps more, never less.
UPDATE organizations SET observation_retention_months = 24 WHERE observation_retention_months < 24;
ALTER TABLE organizations DROP CONSTRAINT organizations_observation_retention_months_check;
ALTER TABLE organizations ADD CONSTRAINT organizations_observation_retention_months_check
  CHECK (observation_retention_months BETWEEN 24 AND 1200);
