-- What applying a rail answer writes under a batch lock: a success, the accounts and GL shards
-- of its journal; a failure, the transfer's account (its hold is voided) and the daily limit key
-- its amount is given back to (the transfer's own columns, which never change); an answer that
-- leaves it Processing, nothing of the ledger's.
CREATE OR REPLACE FUNCTION transfer_settle_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(coalesce(p_item->'journal'->'accountIds', '[]')))
    || CASE WHEN p_item->>'status' = 'Failed' THEN
         (SELECT ARRAY[account_id, coalesce(daily_limit_key, account_id)]
            FROM transfers WHERE id = p_item->>'transferId')
       END
$$;
