-- VAS purchases count in the same day as transfers: the Lagos business day (0031's
-- transfer_limit_day), not the UTC day 0029 used, so a purchase and a transfer made between
-- 23:00 and 24:00 UTC add to one total. A purchase still pending across the upgrade that was made
-- between 23:00 and 24:00 UTC gives its price back to its Lagos day, not the UTC day it counted in.
-- The two functions are 0029's, with the day computed by transfer_limit_day.
CREATE OR REPLACE FUNCTION vas_place_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_purchase vas_purchases%ROWTYPE := jsonb_populate_record(NULL::vas_purchases, p_item->'purchase');
  v_claim record;
  v_daily jsonb := p_item->'daily';
BEGIN
  IF p_item ? 'idempotencyKey' THEN
    SELECT * INTO v_claim FROM idempotency_claim(v_purchase.client_id, p_item->>'idempotencyScope',
      p_item->>'idempotencyKey', v_purchase.request_hash, v_purchase.id, v_purchase.created_at);
    IF NOT v_claim.claimed THEN
      IF v_claim.request_hash IS DISTINCT FROM v_purchase.request_hash THEN
        PERFORM vas_refuse('IDEMPOTENCY_KEY_REUSED');
      END IF;
      RETURN jsonb_build_object('kind', 'replay', 'purchaseId', v_claim.resource_id);
    END IF;
  END IF;
  PERFORM 1 FROM accounts WHERE id = v_purchase.account_id AND status = 'Active';
  IF NOT FOUND THEN
    PERFORM vas_refuse('ACCOUNT_NOT_ACTIVE');
  END IF;
  INSERT INTO vas_purchases SELECT v_purchase.*;
  PERFORM ledger_hold_json(p_item->'hold');
  IF v_purchase.daily_limit_key IS NOT NULL AND daily_outbound_add(v_purchase.daily_limit_key,
       transfer_limit_day(v_purchase.created_at), v_purchase.amount_kobo)
     > (v_daily->>'limit')::bigint THEN
    PERFORM vas_refuse('TRANSFER_LIMIT_EXCEEDED', v_daily->>'limitMessage');
  END IF;
  RETURN jsonb_build_object('kind', 'placed');
END $$;

-- VAS: settlement (0017) giving a failed purchase's price back to the day it counted under (the
-- batch holds that key's lock).
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
  IF v_status = 'successful' THEN
    PERFORM ledger_post_json(p_item->'journal');
  ELSIF v_status = 'failed' THEN
    PERFORM ledger_void_hold(v_purchase.hold_id, v_at);
    IF v_purchase.daily_limit_key IS NOT NULL THEN
      PERFORM daily_outbound_give_back(v_purchase.daily_limit_key,
        transfer_limit_day(v_purchase.created_at), v_purchase.amount_kobo);
    END IF;
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
