-- What a credit from another bank writes under a batch lock: the accounts and GL shards of its
-- journal (the hot NIP settlement GL is locked once per batch, not once per credit), and for an
-- auto-sweep of the credited account, its destination and the swept account's daily limit key.
CREATE OR REPLACE FUNCTION transfer_receive_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
    || ARRAY[p_item->'sweep'->>'destinationAccountId', p_item->'sweep'->>'dailyLimitKey']
$$;
