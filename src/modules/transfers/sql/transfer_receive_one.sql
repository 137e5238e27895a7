-- One credit from another bank (apply_batch, kind transferReceipt in transfer-batch.ts), then the
-- credited account's auto-sweep if the service prepared one. A session already received answers
-- 'duplicate' and moves nothing. A credit that pays a collection (a virtual account, a USSD
-- reference) is accepted or refused by its owner through the claims it carries, inside this
-- item: a refusal moves nothing, the sweep included.
CREATE OR REPLACE FUNCTION transfer_receive_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers, p_item->'transfer')
    ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('kind', 'duplicate');
  END IF;
  PERFORM ledger_post_json(p_item->'journal');
  PERFORM batch_run_claims(p_item->'claims');
  PERFORM webhook_enqueue(p_item->'events', (p_item->>'at')::timestamptz);
  IF p_item ? 'sweep' THEN
    PERFORM transfer_sweep_one(p_item->'sweep');
  END IF;
  RETURN jsonb_build_object('kind', 'received');
END $$;
