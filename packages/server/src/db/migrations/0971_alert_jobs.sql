-- The alerts' new jobs (see 0911: the runtime role creates no queue itself).
-- The escalation check: one run per minute's tick across instances (singleton), a short expiry
-- since the next tick runs it again anyway.
SELECT pgboss.create_queue('alerts-escalation-check', '{"policy":"singleton","retryLimit":1,"expireInSeconds":120}');
-- Re-evaluation after a threshold, setting or program change: one job per change (standard), so
-- two changes in a row both run; retried, as a change must not be left unapplied.
SELECT pgboss.create_queue('alerts-reevaluate', '{"policy":"standard","retryLimit":5,"retryDelay":30,"expireInSeconds":1800}');

-- The worklist groups the active alerts by patient: this index holds exactly those (open or
-- acknowledged, a fraction of all alerts) with every column the grouping reads, in patient order
-- per organization, so the rows come from an index-only scan without a sort.
CREATE INDEX alerts_active_by_patient_idx ON alerts (organization_id, patient_id)
  INCLUDE (status, severity_rank, rule, first_at, escalated_at, snoozed_until)
  WHERE status IN ('open', 'acknowledged');
