-- Sends a lien's `account.lien` event (docs/webhooks.md) to its account's callbackUrl as it
-- stands now. The service rendered the payload with lienView before the call, with an amount, an
-- outstanding and a write-off of 0 where only the call knows them (the shortfall, what a release
-- writes off): they go in here as the naira
-- numbers lienView shows (koboToNaira: 1500.5, not 1500.50), as transfer_sweep_one writes its
-- amount. A key is unique in its object, and a quote inside a string value is escaped, so
-- `"amount":0,` is the amount and nothing else. A `filled` event's updatedAt, rendered as the
-- Unix epoch, becomes the time it was paid.
CREATE OR REPLACE FUNCTION transfer_lien_event(
  p_event jsonb, p_account_id text, p_amount bigint, p_outstanding bigint,
  p_written_off bigint, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_enqueue(jsonb_build_array(p_event || jsonb_build_object(
      'callbackUrl', account_callback_url(p_account_id),
      'payload', replace(replace(replace(replace(p_event->>'payload',
        '"amount":0,', '"amount":' || trim_scale(p_amount / 100.0)::text || ','),
        '"outstanding":0,', '"outstanding":' || trim_scale(p_outstanding / 100.0)::text || ','),
        '"writtenOff":0,', '"writtenOff":' || trim_scale(p_written_off / 100.0)::text || ','),
        '"updatedAt":"1970-01-01T00:00:00.000Z"', '"updatedAt":"'
          || to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'))),
    p_at);
END $$;
