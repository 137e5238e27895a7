-- A batch of transfers in one call: placements ('place'), NIP settlements ('settle') and inbound
-- credits ('receive'). Every account the batch will touch (and every daily limit key its items
-- count under) is locked first, once, in one global order (ledger_lock_batch), so batches from
-- any number of server processes cannot deadlock on accounts. Each item runs in its own
-- subtransaction: a refusal (or a debit beyond the funds, OIB01) rolls back that item alone and
-- answers {kind: refused, code, message}; any other failure of an item answers {kind: failed};
-- a deadlock fails the batch, which the caller retries whole. One subtransaction per item: keep
-- batches within the 64 that PostgreSQL tracks per transaction without overflowing.
-- An item that pays a collection is handed, by the claim's kind, to its owner's function (a
-- virtual account, or a USSD reference) once the transfer is placed or received, in the item's
-- subtransaction: a refused payment rolls back its transfer, journal and events.
CREATE OR REPLACE FUNCTION apply_transfer_batch(p_kind text, p_items jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_result jsonb;
  v_results jsonb := '[]';
  v_code text;
  v_message text;
BEGIN
  PERFORM ledger_lock_batch(ARRAY(
    SELECT jsonb_array_elements_text(item->'lockAccountIds')
      FROM jsonb_array_elements(p_items) AS item));
  FOR v_item IN SELECT * FROM jsonb_array_elements(p_items) LOOP
    BEGIN
      v_result := CASE p_kind
        WHEN 'place' THEN transfer_place_one(v_item)
        WHEN 'settle' THEN transfer_settle_one(v_item)
        WHEN 'receive' THEN transfer_receive_one(v_item)
      END;
      IF v_item ? 'collection' AND v_result->>'kind' IN ('placed', 'received') THEN
        CASE v_item->'collection'->>'kind'
          WHEN 'virtualAccount' THEN PERFORM virtual_account_collect(v_item->'collection');
          WHEN 'ussdReference' THEN PERFORM ussd_reference_collect(v_item->'collection');
        END CASE;
      END IF;
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
      v_results := v_results || jsonb_build_array(transfer_item_failure(SQLSTATE, SQLERRM));
    END;
  END LOOP;
  RETURN v_results;
END $$;
