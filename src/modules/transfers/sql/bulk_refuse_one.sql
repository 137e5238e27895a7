-- One refusal of a bulk item recorded (apply_batch, kind bulkRefusal in bulk/bulk-batch.ts): in
-- the same transaction as the placement call that refused it (whose refusal rolled back all it
-- wrote), under the same locks, so no other chunk can end the item between the two. Under
-- allOrNothing the item's hold is let go: the funds are available again.
CREATE OR REPLACE FUNCTION bulk_refuse_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_hold text;
  v_at timestamptz := (p_item->>'at')::timestamptz;
BEGIN
  UPDATE bulk_items SET status = 'Refused', error_code = p_item->>'code',
         error_message = p_item->>'message', ended_at = v_at
   WHERE batch_id = p_item->>'batchId' AND position = (p_item->>'position')::int
     AND status = 'Pending'
   RETURNING hold_id INTO v_hold;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('kind', 'ended');
  END IF;
  IF v_hold IS NOT NULL THEN
    PERFORM ledger_void_hold(v_hold, v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'refused');
END $$;
