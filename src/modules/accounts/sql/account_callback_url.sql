-- The account's callbackUrl as it stands now: an event about the account's money goes there
-- (or, when it has none, to its client's webhook URL).
CREATE OR REPLACE FUNCTION account_callback_url(p_account_id text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT callback_url FROM accounts WHERE id = p_account_id
$$;
