-- An item of a batch that failed for a reason that is not a refusal (a bug, a broken row): it
-- alone is rolled back, and its caller alone gets an error.
CREATE OR REPLACE FUNCTION transfer_item_failure(p_sqlstate text, p_message text) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  RETURN jsonb_build_object('kind', 'failed', 'sqlstate', p_sqlstate, 'message', p_message);
END $$;
