-- What a clawback writes under a batch lock (kinds inboundRecall and transferReversal): the
-- accounts of its journal (the debtor, and the settlement GL for a recall; the sender, and fee
-- income and VAT payable when a collection's charges are given back, for a reversal) and the lien
-- receivable GL its shortfall would be debited from. Two requests for one recall or reversal name
-- the same accounts, so they queue on these locks and the second finds the transfer Reversed.
CREATE OR REPLACE FUNCTION transfer_clawback_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
    || ARRAY[p_item->'lien'->>'receivableAccountId']
$$;
