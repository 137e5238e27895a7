-- Locks ledger accounts for a journal or a hold outside a batch (ledger_post, ledger_hold).
-- Accounts are locked once each, in id order, so concurrent journals over the same accounts
-- cannot deadlock.
-- The ledger's errors use SQLSTATE class OI: OIB01 insufficient funds (DETAIL = account id),
-- OIB02 unknown account, OIB03 hold not pending, OIB90 malformed journal.
CREATE OR REPLACE FUNCTION ledger_lock_accounts(p_account_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_locked int;
BEGIN
  SELECT count(*) INTO v_locked FROM (
    SELECT id FROM ledger_accounts WHERE id = ANY (p_account_ids) ORDER BY id FOR UPDATE
  ) locked;
  IF v_locked <> (SELECT count(DISTINCT account_id) FROM unnest(p_account_ids) AS account_id) THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB02', MESSAGE = 'unknown ledger account';
  END IF;
END $$;
