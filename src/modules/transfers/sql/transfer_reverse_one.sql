-- One operator reversal of an intra-bank transfer made in error (apply_batch, kind
-- transferReversal in transfer-batch.ts). Both rows are locked (the outward first, always); it
-- applies only while both are Completed: a reversal asked twice, even at once, finds them
-- Reversed the second time and answers 'unchanged', moving nothing. The sender is credited the
-- amount at once; the beneficiary gives back what it has available under the lock and owes the
-- rest as a lien (ledger_post_clawback). Both rows become Reversed under the reversal's id, and
-- each client gets its `transfer` event.
CREATE OR REPLACE FUNCTION transfer_reverse_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_outward transfers%ROWTYPE;
  v_inward transfers%ROWTYPE;
  v_at timestamptz := (p_item->>'at')::timestamptz;
  v_lien bigint;
BEGIN
  SELECT * INTO v_outward FROM transfers WHERE id = p_item->>'outwardId' FOR UPDATE;
  SELECT * INTO v_inward FROM transfers WHERE id = p_item->>'inwardId' FOR UPDATE;
  IF v_outward.id IS NULL OR v_inward.id IS NULL OR v_outward.status <> 'Completed'
     OR v_inward.status <> 'Completed' OR v_outward.type <> 'Outwards'
     OR v_outward.hold_id IS NOT NULL THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  v_lien := ledger_post_clawback(p_item->'journal', p_item->'lien');
  UPDATE transfers SET status = 'Reversed', is_reversed = true,
      reversal_reference = p_item->>'reversalId', updated_at = v_at
    WHERE id IN (v_outward.id, v_inward.id);
  PERFORM webhook_enqueue(jsonb_build_array(
      p_item->'outwardEvent' || jsonb_build_object(
        'callbackUrl', account_callback_url(v_outward.account_id)),
      p_item->'inwardEvent' || jsonb_build_object(
        'callbackUrl', account_callback_url(v_inward.account_id))), v_at);
  IF v_lien > 0 THEN
    PERFORM transfer_lien_event(p_item->'lienEvents'->'placed', v_inward.account_id, v_lien,
      v_lien, 0, v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'applied', 'lienKobo', v_lien::text);
END $$;
