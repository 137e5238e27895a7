-- The ledger's half of every two-phase settlement (a NIP transfer, a VAS purchase), inside a
-- batch that holds the locks of the accounts it names: a success posts the journal that releases
-- the hold (the money moves as it was held), a failure voids the hold (the funds are available
-- again). An answer that is neither leaves the hold as it is: the caller does not call this.
CREATE OR REPLACE FUNCTION ledger_settle_hold(
  p_hold_id text, p_succeeded boolean, p_journal jsonb, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT p_succeeded THEN
    PERFORM ledger_void_hold(p_hold_id, p_at);
  ELSIF p_journal->>'releaseHoldId' IS DISTINCT FROM p_hold_id THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'a settlement posts the hold it settles';
  ELSE
    PERFORM ledger_post_json(p_journal);
  END IF;
END $$;
