-- What a release writes under a batch lock: the lien's account (so no credit pays the lien while
-- it is written off), and the two GL accounts of the write-off journal.
CREATE OR REPLACE FUNCTION transfer_lien_release_locks(p_item jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[p_item->>'accountId']
    || ARRAY(SELECT jsonb_array_elements_text(p_item->'journal'->'accountIds'))
$$;
