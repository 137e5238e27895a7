-- Posts a journal in one round trip, outside a batch: locks its accounts, then does the work
-- (ledger_post_unlocked). Each account's entries are numbered without gaps.
CREATE OR REPLACE FUNCTION ledger_post(
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
BEGIN
  PERFORM ledger_lock_accounts(p_account_ids);
  PERFORM ledger_post_unlocked(p_journal_id, p_kind, p_narration, p_reference, p_transfer_id,
    p_created_at, p_account_ids, p_amounts, p_entry_narrations, p_release_hold_id);
END $$;
