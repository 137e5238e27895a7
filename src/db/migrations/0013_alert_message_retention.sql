-- Retention of customer alerts (docs/alerts.md, "Retention"): the retention worker deletes
-- messages settled (sent, failed for good, suppressed) more than RETENTION_ALERT_MESSAGE_DAYS
-- ago, oldest first, in bounded batches. This index finds them without reading the pending ones
-- or the whole table.
CREATE INDEX alert_messages_settled_idx ON alert_messages (created_at) WHERE status <> 'pending';
