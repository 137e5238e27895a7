-- What accepting a bulk batch writes under a batch lock: the accounts its allOrNothing holds
-- are taken on (none without allOrNothing).
CREATE OR REPLACE FUNCTION bulk_accept_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT DISTINCT hold->>'accountId'
                 FROM jsonb_array_elements(coalesce(p_item->'holds', '[]')) AS hold)
$$;
