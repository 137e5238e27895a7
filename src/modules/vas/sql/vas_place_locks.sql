-- What a purchase's placement writes under a batch lock: the debit account (its hold) and the
-- daily limit key its price counts under (a row the identity's other accounts write too).
CREATE OR REPLACE FUNCTION vas_place_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[p_item->'hold'->>'accountId', p_item->'purchase'->>'account_id',
               p_item->'purchase'->>'daily_limit_key']
$$;
