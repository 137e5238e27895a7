-- One bulk batch accepted (apply_batch, kind bulkAcceptance in bulk/bulk-batch.ts): its
-- Idempotency-Key, the batch and every item, and under allOrNothing a hold on each item's total
-- (amount, fee and VAT), all in one subtransaction. A hold the funds cannot cover refuses the
-- whole batch (INSUFFICIENT_FUNDS): nothing is stored and nothing moves.
CREATE OR REPLACE FUNCTION bulk_accept_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_claim record;
  v_batch jsonb := p_item->'batch';
  v_hold jsonb;
BEGIN
  -- 1. The Idempotency-Key of the whole batch: a replay answers the batch it made.
  SELECT * INTO v_claim FROM idempotency_claim(v_batch->>'client_id',
    p_item->>'idempotencyScope', p_item->>'idempotencyKey', v_batch->>'request_hash',
    v_batch->>'id', (v_batch->>'created_at')::timestamptz);
  IF NOT v_claim.claimed THEN
    IF v_claim.request_hash IS DISTINCT FROM v_batch->>'request_hash' THEN
      PERFORM batch_refuse('IDEMPOTENCY_KEY_REUSED');
    END IF;
    RETURN jsonb_build_object('kind', 'replay', 'batchId', v_claim.resource_id);
  END IF;
  -- 2. The batch and its items, keyed by column (bulk-repository.ts builds them).
  INSERT INTO bulk_batches SELECT * FROM jsonb_populate_record(NULL::bulk_batches, v_batch);
  INSERT INTO bulk_items SELECT * FROM jsonb_populate_recordset(NULL::bulk_items, p_item->'items');
  -- 3. allOrNothing: the total held first, item by item (OIB01 refuses the whole batch).
  FOR v_hold IN SELECT * FROM jsonb_array_elements(coalesce(p_item->'holds', '[]')) LOOP
    PERFORM ledger_hold_json(v_hold);
  END LOOP;
  RETURN jsonb_build_object('kind', 'accepted');
END $$;
