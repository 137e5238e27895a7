-- What placing a bulk item writes under a batch lock: what its placement does
-- (transfer_place_locks), the account of its allOrNothing hold, and its batch (bulk:<id>), so
-- two chunks of one batch never run at once.
CREATE OR REPLACE FUNCTION bulk_place_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(transfer_place_locks(p_item->'placement'), ARRAY[]::text[])
    || ARRAY[p_item->>'holdAccountId', 'bulk:' || (p_item->>'batchId')]
$$;
