-- What a placement writes under a batch lock (apply_batch takes them all first, in one order):
-- the accounts and GL shards of its journal or its hold, the debit account, and the daily limit
-- key the day's total counts under (a row the identity's other accounts write too), and for an
-- auto-sweep of the credited account, its destination and the swept account's daily limit key.
-- A request refused before the call names none.
CREATE OR REPLACE FUNCTION transfer_place_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(coalesce(p_item->'journal'->'accountIds', '[]')))
    || ARRAY[p_item->'sweep'->>'destinationAccountId', p_item->'sweep'->>'dailyLimitKey']
    || ARRAY[p_item->'hold'->>'accountId', p_item->'outward'->>'account_id',
             coalesce(p_item->'outward'->>'daily_limit_key', p_item->'outward'->>'account_id')]
$$;
