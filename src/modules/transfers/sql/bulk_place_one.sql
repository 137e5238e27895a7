-- One item of a bulk batch placed (apply_batch, kind bulkPlacement in bulk/bulk-batch.ts), in
-- the runner's subtransaction: the placement of POST /transfers (transfer_place_one) with the
-- item's outcome written beside it, so an item is Placed exactly when its transfer exists. The
-- batch's lock (bulk_place_locks) makes the chunks of one batch go one at a time: an item found
-- ended already (a chunk a lost claim ran twice) rolls back all this did and moves nothing
-- (checked last, by the update itself: it almost never happens).
CREATE OR REPLACE FUNCTION bulk_place_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_result jsonb;
  v_at timestamptz := (p_item->>'at')::timestamptz;
BEGIN
  -- What the worker found wrong before the call (a failed name enquiry, a closed account).
  IF p_item ? 'refusal' THEN
    PERFORM batch_refuse(p_item->'refusal'->>'code', p_item->'refusal'->>'message');
  END IF;
  -- allOrNothing: the item's share of the batch's hold is let go for the placement to take
  -- (held again for NIP, posted for intra-bank); a refusal below rolls this back with the rest.
  IF p_item->>'holdId' IS NOT NULL THEN
    PERFORM ledger_void_hold(p_item->>'holdId', v_at);
  END IF;
  v_result := transfer_place_one(p_item->'placement');
  -- A replay means another request took the item's paymentReference after the batch was
  -- accepted: this item made no transfer.
  IF v_result->>'kind' IS DISTINCT FROM 'placed' THEN
    PERFORM batch_refuse('DUPLICATE_REFERENCE',
      'This paymentReference was used by another transfer meanwhile.');
  END IF;
  UPDATE bulk_items SET status = 'Placed', transfer_id = p_item->'placement'->>'transferId',
         ended_at = v_at
   WHERE batch_id = p_item->>'batchId' AND position = (p_item->>'position')::int
     AND status = 'Pending';
  IF NOT FOUND THEN
    -- Ended already: its refusal is recorded by nobody (bulk_refuse_one finds it ended).
    PERFORM batch_refuse('CONFLICT', 'This bulk item has ended already.');
  END IF;
  RETURN jsonb_build_object('kind', 'placed', 'transferId', p_item->'placement'->>'transferId');
END $$;
