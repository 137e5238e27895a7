-- What a credit from another bank writes under a batch lock: the accounts and GL shards of its
-- journal (the hot NIP settlement GL is locked once per batch, not once per credit).
CREATE OR REPLACE FUNCTION transfer_receive_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
    || ARRAY(SELECT jsonb_array_elements_text(coalesce(p_item->'locks', '[]')))
$$;
