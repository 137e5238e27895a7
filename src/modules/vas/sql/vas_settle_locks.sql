-- What applying a biller's answer writes under a batch lock: a success, the accounts and GL
-- shards of its journal; a failure, the purchase's account (its hold is voided) and the daily
-- limit key its price is given back to (the purchase's own columns, which never change).
CREATE OR REPLACE FUNCTION vas_settle_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(coalesce(p_item->'journal'->'accountIds', '[]')))
    || CASE WHEN p_item->>'status' = 'failed' THEN
         (SELECT ARRAY[account_id, daily_limit_key] FROM vas_purchases
           WHERE id = p_item->>'purchaseId')
       END
$$;
