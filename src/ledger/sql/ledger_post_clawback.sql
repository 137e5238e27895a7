-- Takes money back from an account that may no longer hold it (a recalled credit, a reversed
-- transfer), inside a batch that holds the locks of the journal's accounts and of the lien
-- receivable GL. The journal (prepared in TypeScript) debits the debtor the whole amount due
-- (p_lien->>'accountId', one line); what the debtor has available (balance - held) under the
-- lock is taken, and the rest becomes a lien: the debtor's line shrinks to what it had (or goes,
-- when it had nothing) and the lien receivable GL is debited the shortfall, so the other lines
-- (the sending bank paid back, the sender credited) move in full at once. The lien is recorded,
-- counted in the account's lien_kobo, and recovered from the account's next credits
-- (ledger_fill_liens). Answers the shortfall (0: no lien).
CREATE OR REPLACE FUNCTION ledger_post_clawback(p_journal jsonb, p_lien jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_debtor text := p_lien->>'accountId';
  v_ids text[] := ARRAY(SELECT jsonb_array_elements_text(p_journal->'accountIds'));
  v_amounts bigint[] := ARRAY(SELECT jsonb_array_elements_text(p_journal->'amounts')::bigint);
  v_narrations text[] := ARRAY(SELECT jsonb_array_elements_text(p_journal->'narrations'));
  v_at timestamptz := (p_journal->>'createdAt')::timestamptz;
  v_index int;
  v_available bigint;
  v_taken bigint;
  v_short bigint;
BEGIN
  v_index := array_position(v_ids, v_debtor);
  IF v_index IS NULL OR v_amounts[v_index] >= 0
     OR array_position(v_ids, v_debtor, v_index + 1) IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'a clawback debits its debtor once';
  END IF;
  SELECT balance_kobo - held_kobo INTO v_available FROM ledger_accounts WHERE id = v_debtor;
  v_taken := least(-v_amounts[v_index], greatest(v_available, 0));
  v_short := -v_amounts[v_index] - v_taken;
  IF v_short > 0 THEN
    IF v_taken = 0 THEN
      v_ids := v_ids[:v_index - 1] || v_ids[v_index + 1:];
      v_amounts := v_amounts[:v_index - 1] || v_amounts[v_index + 1:];
      v_narrations := v_narrations[:v_index - 1] || v_narrations[v_index + 1:];
    ELSE
      v_amounts[v_index] := -v_taken;
    END IF;
    v_ids := v_ids || (p_lien->>'receivableAccountId');
    v_amounts := v_amounts || -v_short;
    v_narrations := v_narrations || ('Lien: ' || (p_lien->>'reason'));
  END IF;
  PERFORM ledger_post_unlocked(p_journal->>'id', p_journal->>'kind', p_journal->>'narration',
    p_journal->>'reference', p_journal->>'transferId', v_at, v_ids, v_amounts, v_narrations,
    p_journal->>'releaseHoldId');
  IF v_short > 0 THEN
    INSERT INTO ledger_liens (id, account_id, amount_kobo, outstanding_kobo, reason, reference,
        status, on_filled, created_at, updated_at)
      VALUES (p_lien->>'id', v_debtor, v_short, v_short, p_lien->>'reason',
        p_lien->>'reference', 'active', nullif(p_lien->'onFilled', 'null'), v_at, v_at);
    UPDATE ledger_accounts SET lien_kobo = lien_kobo + v_short WHERE id = v_debtor;
  END IF;
  RETURN v_short;
END $$;
