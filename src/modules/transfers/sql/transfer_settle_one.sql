-- One rail answer applied to a NIP transfer that is still Processing; anything else (a
-- concurrent worker settled it) is left as it is and answered 'unchanged'. A failure voids the
-- hold and gives the amount back to the Lagos day and key it counted under.
CREATE OR REPLACE FUNCTION transfer_settle_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_transfer transfers%ROWTYPE;
  v_status text := p_item->>'status';
  v_at timestamptz := (p_item->>'at')::timestamptz;
  v_beneficiary jsonb := p_item->'beneficiary';
BEGIN
  SELECT * INTO v_transfer FROM transfers WHERE id = p_item->>'transferId' FOR UPDATE;
  IF NOT FOUND OR v_transfer.status <> 'Processing' THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  -- The money: a success posts the hold, a failure voids it (ledger_settle_hold), and the
  -- transfer no longer counts towards its day's limit: the amount comes off the total it was
  -- added to, under the key it was counted under (transfer_settle_locks locks that key; a
  -- transfer without a key counted under its account).
  IF v_status IN ('Completed', 'Failed') THEN
    PERFORM ledger_settle_hold(v_transfer.hold_id, v_status = 'Completed', p_item->'journal', v_at);
  END IF;
  IF v_status = 'Failed' THEN
    PERFORM daily_outbound_give_back(coalesce(v_transfer.daily_limit_key, v_transfer.account_id),
      transfer_limit_day(v_transfer.created_at), v_transfer.amount_kobo);
  END IF;
  IF v_beneficiary IS NOT NULL THEN
    PERFORM beneficiary_save(v_beneficiary->>'id', v_transfer.client_id,
      v_beneficiary->>'bankCode', v_beneficiary->>'bankName', v_beneficiary->>'accountNumber',
      v_beneficiary->>'accountName', v_at);
  END IF;
  UPDATE transfers SET status = v_status, response_code = p_item->>'responseCode',
      response_message = p_item->>'responseMessage', updated_at = v_at,
      approved_at = CASE WHEN v_status = 'Completed' THEN v_at ELSE approved_at END,
      declined_at = CASE WHEN v_status = 'Failed' THEN v_at ELSE declined_at END,
      next_status_query_at = (p_item->>'nextStatusQueryAt')::timestamptz
    WHERE id = v_transfer.id;
  -- The event goes to the account's callbackUrl as it stands now.
  IF p_item ? 'event' THEN
    PERFORM webhook_enqueue(jsonb_build_array(p_item->'event' || jsonb_build_object(
      'callbackUrl', account_callback_url(v_transfer.account_id))), v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'settled');
END $$;
