-- One return of a NIP transfer (apply_batch, kind transferReturn in transfer-batch.ts): the
-- beneficiary bank sent back a transfer that had succeeded. It applies only to an Outwards NIP
-- transfer (one that held its funds) still Completed, read under the row's lock after the
-- batch's: a notice resent, or racing another one or the status query that found the same
-- return, finds it Reversed and answers 'unchanged', moving nothing, so the customer is credited
-- once. The journal (outbound/transfer-return.ts) gives back what the settlement took: the
-- amount from the NIP settlement GL, the fee and its VAT from their GL accounts. The day's
-- outbound total keeps the amount: the transfer was sent that day.
CREATE OR REPLACE FUNCTION transfer_return_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_transfer transfers%ROWTYPE;
  v_at timestamptz := (p_item->>'at')::timestamptz;
BEGIN
  SELECT * INTO v_transfer FROM transfers WHERE id = p_item->>'transferId' FOR UPDATE;
  IF NOT FOUND OR v_transfer.status <> 'Completed' OR v_transfer.type <> 'Outwards'
     OR v_transfer.hold_id IS NULL THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  PERFORM ledger_post_json(p_item->'journal');
  -- Returned for good: no status query is due any more.
  UPDATE transfers SET status = 'Reversed', is_reversed = true,
      reversal_reference = p_item->>'returnSessionId', updated_at = v_at,
      next_status_query_at = NULL
    WHERE id = v_transfer.id;
  -- The event goes to the account's callbackUrl as it stands now, as a settlement's does.
  PERFORM webhook_enqueue(jsonb_build_array(p_item->'event' || jsonb_build_object(
    'callbackUrl', account_callback_url(v_transfer.account_id))), v_at);
  RETURN jsonb_build_object('kind', 'returned');
END $$;
