-- A journal as JSON (journalJson in ledger-service.ts), inside a batch that holds the batch
-- locks of every account it names (ledger_lock_batch).
CREATE OR REPLACE FUNCTION ledger_post_json(p_journal jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_post_unlocked(p_journal->>'id', p_journal->>'kind', p_journal->>'narration',
      p_journal->>'reference', p_journal->>'transferId', (p_journal->>'createdAt')::timestamptz,
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'accountIds')),
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'amounts')::bigint),
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'narrations')),
      p_journal->>'releaseHoldId');
END $$;
