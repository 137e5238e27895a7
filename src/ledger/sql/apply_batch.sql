-- The one batch runner: every movement of money is an item of a batch of one kind, applied in
-- one call (src/db/batch-call.ts). A kind is a pair of functions its module owns, named by the
-- caller: p_apply(item) applies one item and answers its result; p_locks(item) names what the
-- item will write under a batch lock (ledger accounts, GL shards, daily limit keys, the rows a
-- claim decides on). The runner takes those locks first, once, in one global order
-- (ledger_lock_batch), with those of every claim the items carry, so batches from any number of
-- processes cannot deadlock. Each item then runs in its own subtransaction: a refusal
-- (batch_refuse, SQLSTATE OTP01) or a debit beyond the funds (OIB01) rolls back that item alone
-- and answers {kind: refused, code, message}; any other failure of an item answers {kind: failed};
-- a deadlock or serialization failure fails the batch, which the caller retries whole. One
-- subtransaction per item: keep batches within the 64 that PostgreSQL tracks per transaction.
CREATE OR REPLACE FUNCTION apply_batch(p_apply text, p_locks text, p_items jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_result jsonb;
  v_results jsonb := '[]';
  v_code text;
  v_message text;
BEGIN
  EXECUTE format(
    'SELECT ledger_lock_batch(ARRAY(SELECT key FROM jsonb_array_elements($1) AS item,
       unnest(%I(item) || ARRAY(SELECT claim->>''lock''
         FROM jsonb_array_elements(coalesce(item->''claims'', ''[]'')) AS claim)) AS key
      WHERE key IS NOT NULL))', p_locks) USING p_items;
  FOR v_item IN SELECT * FROM jsonb_array_elements(p_items) LOOP
    BEGIN
      EXECUTE format('SELECT %I($1)', p_apply) INTO v_result USING v_item;
      v_results := v_results || jsonb_build_array(v_result);
    EXCEPTION WHEN SQLSTATE 'OTP01' THEN
      GET STACKED DIAGNOSTICS v_code = MESSAGE_TEXT, v_message = PG_EXCEPTION_DETAIL;
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', v_code, 'message', nullif(v_message, '')));
    WHEN SQLSTATE 'OIB01' THEN
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', 'INSUFFICIENT_FUNDS', 'message', NULL));
    WHEN OTHERS THEN
      IF SQLSTATE IN ('40P01', '40001') THEN
        RAISE;
      END IF;
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'failed', 'sqlstate', SQLSTATE, 'message', SQLERRM));
    END;
  END LOOP;
  RETURN v_results;
END $$;
