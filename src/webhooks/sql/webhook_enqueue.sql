-- Events into the outbox, with the change they report. Payloads arrive as JSON text so the
-- stored json keeps the field order of the view that rendered it.
CREATE OR REPLACE FUNCTION webhook_enqueue(p_events jsonb, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_events (id, client_id, type, payload, callback_url, status,
        next_attempt_at, created_at, updated_at)
    SELECT e->>'id', e->>'clientId', e->>'type', (e->>'payload')::json, e->>'callbackUrl',
           'pending', p_at, p_at, p_at
      FROM jsonb_array_elements(p_events) AS e;
END $$;
