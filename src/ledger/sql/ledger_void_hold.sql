-- Voids a pending hold: its funds are available again, and go first to the account's liens.
CREATE OR REPLACE FUNCTION ledger_void_hold(p_hold_id text, p_resolved_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_hold ledger_holds%ROWTYPE;
  v_lien_kobo bigint;
BEGIN
  UPDATE ledger_holds SET status = 'voided', resolved_at = p_resolved_at
    WHERE id = p_hold_id AND status = 'pending'
    RETURNING * INTO v_hold;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB03', MESSAGE = 'hold is not pending';
  END IF;
  UPDATE ledger_accounts SET held_kobo = held_kobo - v_hold.amount_kobo
    WHERE id = v_hold.account_id
    RETURNING lien_kobo INTO v_lien_kobo;
  IF v_lien_kobo > 0 THEN
    PERFORM ledger_fill_liens(v_hold.account_id, p_hold_id, p_resolved_at);
  END IF;
END $$;
