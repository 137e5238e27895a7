-- Locks for a batch (apply_transfer_batch, apply_vas_batch).
-- A batch runs each item in a subtransaction; had the batch itself locked the account rows (FOR
-- UPDATE), every update of such a row inside an item would need a MultiXact to remember the
-- batch's lock beside the item's update, and MultiXacts are slow to make and to read back. So a
-- batch takes transaction-level advisory locks instead, one per account, in one global order
-- (by the key), which is what keeps batches from any number of processes from deadlocking; the
-- rows themselves are locked by the items' own updates. Two accounts whose ids hash alike share
-- a lock: harmless, they only queue together. A daily limit key is locked the same way, named
-- with the accounts (daily_outbound_totals is written under its key's lock).
CREATE OR REPLACE FUNCTION ledger_lock_batch(p_account_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301, key)
     FROM (SELECT DISTINCT hashtext(account_id) AS key FROM unnest(p_account_ids) AS account_id
            ORDER BY 1) AS keys;
END $$;
