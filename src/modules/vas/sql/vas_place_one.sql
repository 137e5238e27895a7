-- Places one purchase (apply_batch, kind vasPlacement in vas-batch.ts): the Idempotency-Key claim (a replay answers first), the debit account
-- Active under the batch's lock, the purchase row, and the hold on its price (a debit beyond the
-- available balance raises OIB01, insufficient funds, before the limit is looked at, as for a
-- transfer). Then the purchase counts under its daily limit key for the Lagos day it was made,
-- against the limit the item carries ({ limit, limitMessage }: the debit account's KYC
-- level's). Refused above it: the item's subtransaction rolls back the purchase, its hold and
-- the count.
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
        PERFORM batch_refuse('IDEMPOTENCY_KEY_REUSED');
      END IF;
      RETURN jsonb_build_object('kind', 'replay', 'purchaseId', v_claim.resource_id);
    END IF;
  END IF;
  PERFORM account_require_active(v_purchase.account_id, 'ACCOUNT_NOT_ACTIVE');
  INSERT INTO vas_purchases SELECT v_purchase.*;
  PERFORM ledger_hold_json(p_item->'hold');
  IF v_purchase.daily_limit_key IS NOT NULL AND daily_outbound_add(v_purchase.daily_limit_key,
       transfer_limit_day(v_purchase.created_at), v_purchase.amount_kobo)
     > (v_daily->>'limit')::bigint THEN
    PERFORM batch_refuse('TRANSFER_LIMIT_EXCEEDED', v_daily->>'limitMessage');
  END IF;
  RETURN jsonb_build_object('kind', 'placed');
END $$;
