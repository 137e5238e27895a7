-- One recall of a credit another bank sent (apply_batch, kind inboundRecall in
-- transfer-batch.ts). It applies only to an Inwards transfer still Completed, read under the
-- row's lock after the batch's: a notice resent, or racing another one, finds it Reversed and
-- answers 'unchanged', moving nothing, so the account is debited once. The sending bank is paid
-- back the whole credit at once (the settlement GL credited); the account gives what it has
-- available under the lock and owes the rest as a lien (ledger_post_clawback), which its next
-- credits pay first. The credit becomes Reversed, its reversalReference the recall's session id.
CREATE OR REPLACE FUNCTION transfer_recall_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_transfer transfers%ROWTYPE;
  v_at timestamptz := (p_item->>'at')::timestamptz;
  v_lien bigint;
BEGIN
  SELECT * INTO v_transfer FROM transfers WHERE id = p_item->>'transferId' FOR UPDATE;
  IF NOT FOUND OR v_transfer.status <> 'Completed' OR v_transfer.type <> 'Inwards' THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  v_lien := ledger_post_clawback(p_item->'journal', p_item->'lien');
  UPDATE transfers SET status = 'Reversed', is_reversed = true,
      reversal_reference = p_item->>'recallSessionId', updated_at = v_at
    WHERE id = v_transfer.id;
  PERFORM webhook_enqueue(jsonb_build_array(p_item->'event' || jsonb_build_object(
    'callbackUrl', account_callback_url(v_transfer.account_id))), v_at);
  IF v_lien > 0 THEN
    PERFORM transfer_lien_event(p_item->'lienEvents'->'placed', v_transfer.account_id, v_lien,
      v_lien, 0, v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'applied', 'lienKobo', v_lien::text);
END $$;
