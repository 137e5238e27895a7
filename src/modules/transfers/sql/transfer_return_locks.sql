-- What a return writes under a batch lock: the accounts and GL shards of its journal (the
-- customer's account, the NIP settlement GL, fee income and VAT payable). Two notices of one
-- return name the same accounts, so they queue on these locks and the second finds the transfer
-- returned already.
CREATE OR REPLACE FUNCTION transfer_return_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
$$;
