-- The work of a journal, without the lock, so that a batch (which holds its advisory locks)
-- runs it alone: the updates lock each row as they change it, and their funds condition is
-- re-checked on the latest row (READ COMMITTED), so the balance rules hold without the explicit
-- lock. Outside a batch, ledger_post locks first. A customer account credited while it owes a
-- lien (lien_kobo > 0 on the row the credit just updated: no extra read) pays the lien first, in
-- the same transaction, with a journal of its own (ledger_fill_liens): whatever kind of credit
-- it was. An account whose holder asked for alerts (notify <> 0 on the same row) gets one
-- notice per journal (ledger_notices: its first and last entry), inserted once after the
-- postings; accounts that did not ask cost nothing more.
CREATE OR REPLACE FUNCTION ledger_post_unlocked(
  p_journal_id text,
  p_kind text,
  p_narration text,
  p_reference text,
  p_transfer_id text,
  p_created_at timestamptz,
  p_account_ids text[],
  p_amounts bigint[],
  p_entry_narrations text[],
  p_release_hold_id text
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_count int := coalesce(array_length(p_account_ids, 1), 0);
  v_hold ledger_holds%ROWTYPE;
  v_account ledger_accounts%ROWTYPE;
  v_amount bigint;
  v_owing text[] := '{}';
  v_owing_id text;
  v_told text[] := '{}';
  v_told_first bigint[] := '{}';
  v_told_last bigint[] := '{}';
  v_told_notify smallint[] := '{}';
  v_at int;
  i int;
BEGIN
  IF v_count < 2 OR v_count <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'a journal needs two or more postings';
  END IF;
  IF (SELECT sum(amount) FROM unnest(p_amounts) AS amount) <> 0
     OR EXISTS (SELECT 1 FROM unnest(p_amounts) AS amount WHERE amount = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'journal does not balance';
  END IF;

  IF p_release_hold_id IS NOT NULL THEN
    UPDATE ledger_holds SET status = 'posted', resolved_at = p_created_at
      WHERE id = p_release_hold_id AND status = 'pending' AND account_id = ANY (p_account_ids)
      RETURNING * INTO v_hold;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'OIB03', MESSAGE = 'hold is not pending';
    END IF;
    UPDATE ledger_accounts SET held_kobo = held_kobo - v_hold.amount_kobo
      WHERE id = v_hold.account_id;
  END IF;

  INSERT INTO ledger_journals (id, kind, narration, reference, transfer_id, created_at)
    VALUES (p_journal_id, p_kind, p_narration, p_reference, p_transfer_id, p_created_at);

  FOR i IN 1 .. v_count LOOP
    v_amount := p_amounts[i];
    UPDATE ledger_accounts SET
        balance_kobo = balance_kobo + v_amount,
        entry_count = entry_count + 1,
        credit_count = credit_count + CASE WHEN v_amount > 0 THEN 1 ELSE 0 END,
        debit_count = debit_count + CASE WHEN v_amount < 0 THEN 1 ELSE 0 END,
        -- Entry times never go backwards within an account, so time ranges map to seq ranges.
        last_entry_at = greatest(last_entry_at, p_created_at)
      WHERE id = p_account_ids[i]
        AND (v_amount > 0 OR allow_negative OR balance_kobo + v_amount - held_kobo >= 0)
      RETURNING * INTO v_account;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = p_account_ids[i]) THEN
        RAISE EXCEPTION USING ERRCODE = 'OIB02', MESSAGE = 'unknown ledger account';
      END IF;
      RAISE EXCEPTION USING ERRCODE = 'OIB01', MESSAGE = 'insufficient funds',
        DETAIL = p_account_ids[i];
    END IF;
    INSERT INTO ledger_entries (account_id, seq, direction_seq, is_credit, journal_id,
        amount_kobo, balance_after_kobo, narration, created_at)
      VALUES (v_account.id, v_account.entry_count,
        CASE WHEN v_amount > 0 THEN v_account.credit_count ELSE v_account.debit_count END,
        v_amount > 0, p_journal_id, v_amount, v_account.balance_kobo,
        coalesce(p_entry_narrations[i], p_narration), v_account.last_entry_at);
    IF v_amount > 0 AND v_account.lien_kobo > 0 AND NOT v_account.id = ANY (v_owing) THEN
      v_owing := v_owing || v_account.id;
    END IF;
    IF v_account.notify <> 0 THEN
      v_at := array_position(v_told, v_account.id);
      IF v_at IS NULL THEN
        v_told := v_told || v_account.id;
        v_told_first := v_told_first || v_account.entry_count;
        v_told_last := v_told_last || v_account.entry_count;
        v_told_notify := v_told_notify || v_account.notify;
      ELSE
        v_told_last[v_at] := v_account.entry_count;
      END IF;
    END IF;
  END LOOP;
  IF cardinality(v_told) > 0 THEN
    INSERT INTO ledger_notices (account_id, kind, source_id, first_seq, last_seq, notify,
        created_at)
      SELECT account_id, 'entry', p_journal_id, first_seq, last_seq, notify, p_created_at
        FROM unnest(v_told, v_told_first, v_told_last, v_told_notify)
          AS t(account_id, first_seq, last_seq, notify);
  END IF;
  FOREACH v_owing_id IN ARRAY v_owing LOOP
    PERFORM ledger_fill_liens(v_owing_id, p_journal_id, p_created_at);
  END LOOP;
END $$;
