-- What a verification's fee writes under a batch lock: the debit account and the GL accounts of
-- its journal (fee income, VAT); a free verification, the debit account only.
CREATE OR REPLACE FUNCTION identity_charge_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(coalesce(p_item->'journal'->'accountIds', '[]')))
    || ARRAY[p_item->'verification'->>'debit_account_id']
$$;
