-- /metrics reads the outbox on every scrape (webhooks/event-repository.ts, outboxStats), so each
-- part must come from a small index, never a scan of the table (every event ever sent, within
-- retention). The pending events already have one, on next_attempt_at (0006): it gives their
-- count and the longest-overdue one. These two add the rest:
--   the oldest event still waiting, by when it was written: the first entry of this index,
--     instead of a visit to every pending row (millions, while a receiver is down for days);
--   the events that failed for good and wait for a replay: counted from their own index.
-- Both hold only the rows in that state, so they stay as small as the backlog they measure.
CREATE INDEX webhook_events_pending_age ON webhook_events (created_at) WHERE status = 'pending';
CREATE INDEX webhook_events_failed_age ON webhook_events (created_at) WHERE status = 'failed';
