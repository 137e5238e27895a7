-- What recording a bulk item's refusal writes under a batch lock: the account of its
-- allOrNothing hold, and its batch (the placement call before it took both already).
CREATE OR REPLACE FUNCTION bulk_refuse_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[p_item->>'holdAccountId', 'bulk:' || (p_item->>'batchId')]
$$;
