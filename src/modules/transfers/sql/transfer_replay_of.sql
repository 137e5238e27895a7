-- The earlier Outwards transfer of a client under a reference, as a replay of it (the key, if
-- any, repointed) when the request is the same, refused when it is not.
CREATE OR REPLACE FUNCTION transfer_replay_of(p_item jsonb, p_earlier_id text, p_earlier_hash text)
RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF p_earlier_hash IS DISTINCT FROM p_item->>'requestHash' THEN
    PERFORM batch_refuse('DUPLICATE_REFERENCE');
  END IF;
  IF p_item ? 'idempotencyKey' THEN
    PERFORM idempotency_repoint(p_item->>'clientId', p_item->>'idempotencyScope',
      p_item->>'idempotencyKey', p_earlier_id);
  END IF;
  RETURN jsonb_build_object('kind', 'replay', 'transferId', p_earlier_id);
END $$;
