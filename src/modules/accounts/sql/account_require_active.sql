-- Refuses the batch item being applied unless the account is Active, read under the batch's
-- locks: the service judged it before the call, and a freeze may have committed since.
CREATE OR REPLACE FUNCTION account_require_active(
  p_account_id text, p_code text, p_message text DEFAULT ''
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND status = 'Active';
  IF NOT FOUND THEN
    PERFORM batch_refuse(p_code, p_message);
  END IF;
END $$;
