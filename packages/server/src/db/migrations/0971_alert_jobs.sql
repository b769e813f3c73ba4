-- The alerts' new jobs (see 0911: the runtime role creates no queue itself).
-- The escalation check: one run per minute's tick across instances (singleton), a short expiry
-- since the next tick runs it again anyway.
SELECT pgboss.create_queue('alerts-escalation-check', '{"policy":"singleton","retryLimit":1,"expireInSeconds":120}');
-- Re-evaluation after a threshold, setting or program change: one job per change (standard), so
-- two changes in a row both run; retried, as a change must not be left unapplied.
SELECT pgboss.create_queue('alerts-reevaluate', '{"policy":"standard","retryLimit":5,"retryDelay":30,"expireInSeconds":1800}');
