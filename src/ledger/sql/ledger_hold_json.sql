-- A hold as JSON (holdJson in ledger-service.ts), inside a batch that holds the batch lock of
-- its account (ledger_lock_batch).
CREATE OR REPLACE FUNCTION ledger_hold_json(p_hold jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_hold_unlocked(p_hold->>'id', p_hold->>'accountId', (p_hold->>'amount')::bigint,
      p_hold->>'reference', (p_hold->>'createdAt')::timestamptz);
END $$;
