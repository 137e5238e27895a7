-- An operator releases an active lien (inside a batch that holds the locks of the lien's account,
-- the lien receivable GL and the write-off GL): what is still outstanding is written off (the
-- write-off GL debited, the lien receivable credited), the lien is `released` and the account
-- owes nothing under it any more. Answers what was written off, or NULL when the lien is not
-- active (filled, released already, or unknown): nothing moves.
CREATE OR REPLACE FUNCTION ledger_release_lien(
  p_lien_id text, p_journal jsonb, p_operator text, p_at timestamptz
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_lien ledger_liens%ROWTYPE;
BEGIN
  SELECT * INTO v_lien FROM ledger_liens WHERE id = p_lien_id FOR UPDATE;
  IF NOT FOUND OR v_lien.status <> 'active' THEN
    RETURN NULL;
  END IF;
  UPDATE ledger_liens SET outstanding_kobo = 0,
      written_off_kobo = written_off_kobo + v_lien.outstanding_kobo, status = 'released',
      released_by = p_operator, updated_at = p_at, resolved_at = p_at
    WHERE id = p_lien_id;
  UPDATE ledger_accounts SET lien_kobo = lien_kobo - v_lien.outstanding_kobo
    WHERE id = v_lien.account_id;
  -- The journal's two accounts are the write-off GL, then the lien receivable.
  PERFORM ledger_post_json(p_journal || jsonb_build_object('amounts', jsonb_build_array(
    (-v_lien.outstanding_kobo)::text, v_lien.outstanding_kobo::text)));
  RETURN v_lien.outstanding_kobo;
END $$;
