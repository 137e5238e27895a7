-- What a reversal writes under a batch lock: the accounts of its journal (the beneficiary, the
-- sender, fee income and VAT payable when a collection's charges are given back) and the lien
-- receivable GL. Two requests for one reversal name the same accounts, so they queue on these
-- locks and the second finds both transfers Reversed already.
CREATE OR REPLACE FUNCTION transfer_reverse_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
    || ARRAY[p_item->'lien'->>'receivableAccountId']
$$;
