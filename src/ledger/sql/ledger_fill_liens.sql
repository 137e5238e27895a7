-- Pays an account's active liens, oldest first, from what it has available (balance - held),
-- as soon as it has any: called by ledger_post_unlocked after a journal credited the account,
-- and by ledger_void_hold when released funds became available. One journal (kind lien_fill, id
-- `<source>.lien.<account>`) debits the account one statement line per lien it pays and credits
-- the lien receivable GL; a lien paid in full becomes `filled` and its placer's handler is told
-- (on_filled: {handler, ...}, with the lien's id and amount), in the transaction of the credit.
--
-- Locks. The caller holds the account (a batch's advisory lock, or ledger_post's row lock), so
-- the account's liens and balance are stable. The lien receivable GL is updated without its
-- batch lock: a credit cannot know beforehand that it will fill a lien. This cannot deadlock: a
-- batch takes all its advisory locks before it updates any row, so after that it only ever
-- waits for row locks, and the only ledger row it updates without holding its advisory lock is
-- this GL's; two batches waiting for each other would both have to be waiting for this one row,
-- which only one of them can hold. Liens are rare, so the GL row is not a hot spot; the batches
-- that place or write off liens name it in their locks, and queue on its row like the others.
CREATE OR REPLACE FUNCTION ledger_fill_liens(
  p_account_id text, p_source_id text, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_available bigint;
  v_lien ledger_liens%ROWTYPE;
  v_take bigint;
  v_total bigint := 0;
  v_filled jsonb[] := '{}';
  v_ids text[] := '{}';
  v_amounts bigint[] := '{}';
  v_narrations text[] := '{}';
  v_notice jsonb;
  v_when timestamptz;
BEGIN
  SELECT balance_kobo - held_kobo INTO v_available FROM ledger_accounts WHERE id = p_account_id;
  FOR v_lien IN SELECT * FROM ledger_liens
      WHERE account_id = p_account_id AND status = 'active' ORDER BY created_at, id LOOP
    EXIT WHEN v_available <= 0;
    v_take := least(v_lien.outstanding_kobo, v_available);
    v_available := v_available - v_take;
    v_total := v_total + v_take;
    -- Never before the lien's own last change: the credit's time comes from the instance that
    -- prepared it, whose clock may be a little behind the one that placed the lien, and a
    -- receiver ordering `account.lien` events by time must see `filled` after `active`.
    v_when := greatest(p_at, v_lien.updated_at);
    UPDATE ledger_liens SET outstanding_kobo = outstanding_kobo - v_take,
        status = CASE WHEN outstanding_kobo = v_take THEN 'filled' ELSE 'active' END,
        resolved_at = CASE WHEN outstanding_kobo = v_take THEN v_when END,
        updated_at = v_when
      WHERE id = v_lien.id;
    v_ids := v_ids || p_account_id;
    v_amounts := v_amounts || -v_take;
    v_narrations := v_narrations || ('Lien recovery: ' || v_lien.reason);
    IF v_take = v_lien.outstanding_kobo AND v_lien.on_filled IS NOT NULL THEN
      v_filled := v_filled || (v_lien.on_filled || jsonb_build_object(
        'lienId', v_lien.id, 'amountKobo', v_lien.amount_kobo::text, 'at', v_when));
    END IF;
  END LOOP;
  IF v_total = 0 THEN
    RETURN;
  END IF;
  UPDATE ledger_accounts SET lien_kobo = lien_kobo - v_total WHERE id = p_account_id;
  PERFORM ledger_post_unlocked(p_source_id || '.lien.' || p_account_id, 'lien_fill',
    'Lien recovery', p_source_id, NULL, p_at,
    v_ids || 'gl.lien_receivable'::text, v_amounts || v_total, v_narrations || NULL::text, NULL);
  FOREACH v_notice IN ARRAY v_filled LOOP
    EXECUTE format('SELECT %I($1, $2)', v_notice->>'handler')
      USING v_notice, (v_notice->>'at')::timestamptz;
  END LOOP;
END $$;
