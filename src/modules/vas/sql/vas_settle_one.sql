-- Applies the biller's answer (apply_batch, kind vasSettlement in vas-batch.ts) to a purchase
-- still pending (anything else was settled by a concurrent worker and is answered
-- 'unchanged'): successful posts the hold (the price to the biller settlement GL, the
-- commission to the client), failed voids it and gives its price back to the day it counted
-- under, pending schedules the next status query. Events (the
-- vas.transaction webhook) commit with the change.
CREATE OR REPLACE FUNCTION vas_settle_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_purchase vas_purchases%ROWTYPE;
  v_status text := p_item->>'status';
  v_at timestamptz := (p_item->>'at')::timestamptz;
BEGIN
  SELECT * INTO v_purchase FROM vas_purchases WHERE id = p_item->>'purchaseId' FOR UPDATE;
  IF NOT FOUND OR v_purchase.status <> 'pending' THEN
    RETURN jsonb_build_object('kind', 'unchanged');
  END IF;
  IF v_status IN ('successful', 'failed') THEN
    PERFORM ledger_settle_hold(v_purchase.hold_id, v_status = 'successful', p_item->'journal', v_at);
  END IF;
  IF v_status = 'failed' AND v_purchase.daily_limit_key IS NOT NULL THEN
    PERFORM daily_outbound_give_back(v_purchase.daily_limit_key,
      transfer_limit_day(v_purchase.created_at), v_purchase.amount_kobo);
  END IF;
  UPDATE vas_purchases SET status = v_status,
      utility_token = coalesce(p_item->>'utilityToken', utility_token),
      receiver_name = coalesce(p_item->>'receiverName', receiver_name),
      failure_message = p_item->>'failureMessage',
      status_queries = status_queries + (p_item->>'statusQueried')::int,
      next_status_query_at = (p_item->>'nextStatusQueryAt')::timestamptz,
      completed_at = CASE WHEN v_status = 'pending' THEN NULL ELSE v_at END,
      updated_at = v_at
    WHERE id = v_purchase.id;
  IF jsonb_array_length(coalesce(p_item->'events', '[]')) > 0 THEN
    PERFORM webhook_enqueue(p_item->'events', v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'settled');
END $$;
