-- Holds funds for a two-phase transfer, outside a batch: locks the account, then does the work
-- (ledger_hold_unlocked). Available = balance - held.
CREATE OR REPLACE FUNCTION ledger_hold(
  p_hold_id text,
  p_account_id text,
  p_amount bigint,
  p_reference text,
  p_created_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_lock_accounts(ARRAY[p_account_id]);
  PERFORM ledger_hold_unlocked(p_hold_id, p_account_id, p_amount, p_reference, p_created_at);
END $$;
