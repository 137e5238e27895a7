-- VAS purchases count towards the daily limit (docs/vas.md, "The daily limit"). Money leaves
-- the bank by a purchase as by a transfer, so a purchase adds its price to the same day's total
-- that transfers count under (daily_outbound_totals, by daily limit key: 0023) and is refused
-- above the limit of its debit account's KYC level; transfers then see it, as it sees them. A
-- failed purchase gives its price back, as a failed transfer does.

-- Purchases: the key a purchase counted under, so that its failure gives back to the same total.
-- NULL: placed before this migration, when purchases did not count; such a purchase gives
-- nothing back when it fails (it never added anything).
ALTER TABLE vas_purchases ADD COLUMN daily_limit_key text;

-- Transfers (the owner of daily_outbound_totals): adding to a key's day, answering the new total,
-- and giving an amount back, for other modules' batch functions. The caller holds the key's
-- batch lock (ledger_lock_batch with its accounts' locks, as transfer placement does: 0023), so
-- no other batch writes the row meanwhile and the total it answers is exact.
CREATE FUNCTION daily_outbound_add(p_key text, p_day date, p_amount bigint) RETURNS bigint
LANGUAGE sql AS $$
  INSERT INTO daily_outbound_totals AS d (limit_key, day, total_kobo)
    VALUES (p_key, p_day, p_amount)
    ON CONFLICT (limit_key, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
    RETURNING total_kobo
$$;

CREATE FUNCTION daily_outbound_give_back(p_key text, p_day date, p_amount bigint) RETURNS void
LANGUAGE sql AS $$
  UPDATE daily_outbound_totals SET total_kobo = total_kobo - p_amount
   WHERE limit_key = p_key AND day = p_day
$$;

-- VAS: placement (0017) counting the purchase under its key for the Lagos day it was made
-- (transfer_limit_day, 0031: plpgsql finds it when the function runs), after
-- its hold (insufficient funds answers first, as for a transfer), against the limit the item
-- carries ({ limit, limitMessage }: the debit account's KYC level's). Refused above it: the
-- item's subtransaction rolls back the purchase, its hold and the count.
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
