-- The work of a hold, without the lock: the caller holds it (ledger_hold), or holds the batch's
-- advisory lock of the account (ledger_hold_json). The funds condition is checked by the update
-- itself, on the latest row. An account whose holder asked for alerts (notify <> 0 on the row
-- the hold updated) gets a notice of the hold.
CREATE OR REPLACE FUNCTION ledger_hold_unlocked(
  p_hold_id text,
  p_account_id text,
  p_amount bigint,
  p_reference text,
  p_created_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_notify smallint;
  v_available bigint;
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'hold amount must be positive';
  END IF;
  UPDATE ledger_accounts SET held_kobo = held_kobo + p_amount
    WHERE id = p_account_id AND (allow_negative OR balance_kobo - held_kobo - p_amount >= 0)
    RETURNING notify, balance_kobo - held_kobo INTO v_notify, v_available;
  IF NOT FOUND THEN
    IF NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = p_account_id) THEN
      RAISE EXCEPTION USING ERRCODE = 'OIB02', MESSAGE = 'unknown ledger account';
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'OIB01', MESSAGE = 'insufficient funds',
      DETAIL = p_account_id;
  END IF;
  INSERT INTO ledger_holds (id, account_id, amount_kobo, status, reference, created_at)
    VALUES (p_hold_id, p_account_id, p_amount, 'pending', p_reference, p_created_at);
  IF v_notify <> 0 THEN
    INSERT INTO ledger_notices (account_id, kind, source_id, amount_kobo, balance_after_kobo,
        notify, created_at)
      VALUES (p_account_id, 'hold', p_hold_id, p_amount, v_available, v_notify, p_created_at);
  END IF;
END $$;
