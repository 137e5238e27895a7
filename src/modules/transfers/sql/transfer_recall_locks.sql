-- What a recall writes under a batch lock: the accounts of its journal (the credited account and
-- the settlement GL) and the lien receivable GL its shortfall would be debited from. Two notices
-- of one recall name the same accounts, so they queue on these locks and the second finds the
-- credit Reversed already.
CREATE OR REPLACE FUNCTION transfer_recall_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
    || ARRAY[p_item->'lien'->>'receivableAccountId']
$$;
