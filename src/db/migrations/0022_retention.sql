-- Retention: what the retention worker deletes is found by these, in bounded batches, without
-- reading whole tables (auth, idempotency, transfers and webhooks each purge their own).
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
CREATE INDEX used_assertion_ids_expiry ON used_assertion_ids (expires_at);
CREATE INDEX name_enquiries_expiry ON name_enquiries (expires_at);
CREATE INDEX idempotency_requests_age ON idempotency_requests (created_at);
CREATE INDEX webhook_events_delivered_age ON webhook_events (updated_at) WHERE status = 'delivered';
