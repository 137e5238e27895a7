-- The auto-sweep of an account a batch item has just credited (transfer_place_one,
-- transfer_receive_one), in that item's subtransaction and under the batch's locks, which name
-- the destination and the swept account's daily limit key besides the credit's accounts. The
-- service prepared the sweep (intra-bank/auto-sweep.ts): its ids, both transfer rows, the
-- journal and both `transfer` events, all but the amount, which only the balance after the
-- credit decides, with the settings as they stand under the lock (account_sweep_amount, the
-- accounts module's rule): what the account holds, less what is held and what it retains.
-- Nothing moves (and the credit stands) when the sweep is off, the account is no longer Active,
-- that amount is not above zero or is below the minimum, or the destination is no longer an
-- Active account of the same client. Otherwise it moves as an intra-bank transfer that completes at once, counted in
-- the swept account's identity's day (no limit applies to a sweep; it counts towards the
-- others'). The destination's own credit is never swept again: the sweep is not an item.
CREATE OR REPLACE FUNCTION transfer_sweep_one(p_sweep jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz := (p_sweep->>'at')::timestamptz;
  v_amount bigint;
  v_naira text;
BEGIN
  v_amount := account_sweep_amount(p_sweep->>'accountId', p_sweep->>'destinationAccountId');
  IF v_amount IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers,
    p_sweep->'outward' || jsonb_build_object('amount_kobo', v_amount));
  INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers,
    p_sweep->'inward' || jsonb_build_object('amount_kobo', v_amount));
  -- The journal's postings are the swept account's debit, then the destination's credit.
  PERFORM ledger_post_json(p_sweep->'journal'
    || jsonb_build_object('amounts', jsonb_build_array((-v_amount)::text, v_amount::text)));
  PERFORM daily_outbound_add(p_sweep->>'dailyLimitKey', transfer_limit_day(v_at), v_amount);
  -- The payloads are JSON text in the view's field order, rendered with an amount of 0: the
  -- amount goes in as the naira number transferView shows (koboToNaira: 1500.5, not 1500.50).
  -- A key is unique in its object, and a quote inside a string value is escaped, so
  -- `"amount":0,` is the amount and nothing else.
  v_naira := trim_scale(v_amount / 100.0)::text;
  PERFORM webhook_enqueue((SELECT jsonb_agg(event || jsonb_build_object('payload',
      replace(event->>'payload', '"amount":0,', '"amount":' || v_naira || ',')))
    FROM jsonb_array_elements(p_sweep->'events') AS event), v_at);
END $$;
