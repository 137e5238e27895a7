-- One placement of a batch (apply_batch, kind transferPlacement in transfer-batch.ts), in the
-- runner's subtransaction: the
-- service built the rows, the journal or hold and the events; this does what must happen under
-- the locks, in the numbered steps below.
CREATE OR REPLACE FUNCTION transfer_place_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_client text := p_item->>'clientId';
  v_reference text := p_item->>'paymentReference';
  v_outward transfers%ROWTYPE;
  v_claim record;
  v_earlier record;
  v_check jsonb;
  v_journal jsonb := p_item->'journal';
  v_hold jsonb := p_item->'hold';
  v_daily jsonb := p_item->'daily';
  v_beneficiary jsonb := p_item->'beneficiary';
  v_total bigint;
BEGIN
  -- 1. The Idempotency-Key: a replay answers the transfer it made, before any other check.
  IF p_item ? 'idempotencyKey' THEN
    SELECT * INTO v_claim FROM idempotency_claim(v_client, p_item->>'idempotencyScope',
      p_item->>'idempotencyKey', p_item->>'requestHash', p_item->>'transferId',
      (p_item->>'now')::timestamptz);
    IF NOT v_claim.claimed THEN
      IF v_claim.request_hash IS DISTINCT FROM p_item->>'requestHash' THEN
        PERFORM batch_refuse('IDEMPOTENCY_KEY_REUSED');
      END IF;
      RETURN jsonb_build_object('kind', 'replay', 'transferId', v_claim.resource_id);
    END IF;
  END IF;
  -- 2. The client's paymentReference: a repeat of an earlier transfer replays it.
  IF v_reference IS NOT NULL THEN
    SELECT id, request_hash INTO v_earlier FROM transfers
     WHERE client_id = v_client AND payment_reference = v_reference AND type = 'Outwards';
    IF FOUND THEN
      RETURN transfer_replay_of(p_item, v_earlier.id, v_earlier.request_hash);
    END IF;
  END IF;
  -- 3. What the service found wrong before the call (only a new request is refused for it).
  IF p_item ? 'refusal' THEN
    PERFORM batch_refuse(p_item->'refusal'->>'code', p_item->'refusal'->>'message');
  END IF;
  -- 4. The accounts are still Active, read under the batch's locks.
  FOR v_check IN SELECT * FROM jsonb_array_elements(coalesce(p_item->'mustBeActive', '[]'))
  LOOP
    PERFORM account_require_active(v_check->>'accountId', v_check->>'code', v_check->>'message');
  END LOOP;
  -- 5. The transfer (and an intra-bank transfer's Inwards twin); a reference taken by a
  --    concurrent request makes this a replay of that one, or a refusal.
  v_outward := jsonb_populate_record(NULL::transfers, p_item->'outward');
  INSERT INTO transfers SELECT v_outward.* ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    SELECT id, request_hash INTO v_earlier FROM transfers
     WHERE client_id = v_client AND payment_reference = v_outward.payment_reference
       AND type = 'Outwards';
    IF FOUND THEN
      RETURN transfer_replay_of(p_item, v_earlier.id, v_earlier.request_hash);
    END IF;
    PERFORM batch_refuse('CONFLICT');
  END IF;
  IF p_item ? 'inward' THEN
    -- FROM, not SELECT (f()).*: the latter calls the function once per column.
    INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers, p_item->'inward');
  END IF;
  -- 6. The money: posted (intra-bank) or held (NIP). Insufficient funds (OIB01) refuse the item
  --    (apply_batch catches it: a block here would cost a second subtransaction per item).
  IF v_journal IS NOT NULL THEN
    PERFORM ledger_post_json(v_journal);
  END IF;
  IF v_hold IS NOT NULL THEN
    PERFORM ledger_hold_json(v_hold);
  END IF;
  -- 7. What the payment pays, if it pays a collection (a virtual account, a USSD reference): its
  --    owner accepts it or refuses it (the whole item rolls back), by the claims the item
  --    carries; this function never names those owners.
  PERFORM batch_run_claims(p_item->'claims');
  -- 8. The day's outbound total under the transfer's daily limit key (the row keeps the key, so
  --    a failure gives back to the same total), this transfer included, against the limit of
  --    the debit account's KYC level. The key may be shared by accounts of one identity that
  --    other batches are placing for: the batch holds its lock (transfer_place_locks names it), so
  --    no other batch writes the row meanwhile and the total is exact.
  INSERT INTO daily_outbound_totals AS d (limit_key, day, total_kobo)
    VALUES (coalesce(v_outward.daily_limit_key, v_outward.account_id),
            transfer_limit_day((v_daily->>'madeAt')::timestamptz),
            (v_daily->>'amount')::bigint)
    ON CONFLICT (limit_key, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
    RETURNING total_kobo INTO v_total;
  IF v_daily ? 'limit' AND v_total > (v_daily->>'limit')::bigint THEN
    PERFORM batch_refuse('TRANSFER_LIMIT_EXCEEDED', v_daily->>'limitMessage');
  END IF;
  -- 9. Webhook events and the saved beneficiary, with the transfer or not at all.
  IF jsonb_array_length(coalesce(p_item->'events', '[]')) > 0 THEN
    PERFORM webhook_enqueue(p_item->'events', (p_item->>'now')::timestamptz);
  END IF;
  IF v_beneficiary IS NOT NULL THEN
    PERFORM beneficiary_save(v_beneficiary->>'id', v_client, v_beneficiary->>'bankCode',
      v_beneficiary->>'bankName', v_beneficiary->>'accountNumber',
      v_beneficiary->>'accountName', (p_item->>'now')::timestamptz);
  END IF;
  -- 9. The credited account's auto-sweep, when the service prepared one (after step 7: the
  --    sweep counts in its own day's total, never against this transfer's limit).
  IF p_item ? 'sweep' THEN
    PERFORM transfer_sweep_one(p_item->'sweep');
  END IF;
  RETURN jsonb_build_object('kind', 'placed');
END $$;
