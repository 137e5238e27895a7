-- Voids a pending hold: its funds are available again, and go first to the account's liens. An
-- account whose holder asked for alerts (notify <> 0 on the row just updated) gets a notice.
CREATE OR REPLACE FUNCTION ledger_void_hold(p_hold_id text, p_resolved_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_hold ledger_holds%ROWTYPE;
  v_lien_kobo bigint;
  v_notify smallint;
  v_available bigint;
BEGIN
  UPDATE ledger_holds SET status = 'voided', resolved_at = p_resolved_at
    WHERE id = p_hold_id AND status = 'pending'
    RETURNING * INTO v_hold;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB03', MESSAGE = 'hold is not pending';
  END IF;
  UPDATE ledger_accounts SET held_kobo = held_kobo - v_hold.amount_kobo
    WHERE id = v_hold.account_id
    RETURNING lien_kobo, notify, balance_kobo - held_kobo INTO v_lien_kobo, v_notify, v_available;
  IF v_notify <> 0 THEN
    INSERT INTO ledger_notices (account_id, kind, source_id, amount_kobo, balance_after_kobo,
        notify, created_at)
      VALUES (v_hold.account_id, 'hold_voided', p_hold_id, v_hold.amount_kobo, v_available,
        v_notify, p_resolved_at);
  END IF;
  IF v_lien_kobo > 0 THEN
    PERFORM ledger_fill_liens(v_hold.account_id, p_hold_id, p_resolved_at);
  END IF;
END $$;
