-- The limits that follow a KYC level count per verified identity, not per account. One BVN,
-- NIN or CAC check can open any number of sub-accounts: had each its own daily limit, the
-- identity's limit would be multiplied by their number. An account's daily limit key names what
-- its outbound transfers count under (docs/api.md, "Transfer limits"):
--   a sub-account: "person:<client id>:<identity type>:<SHA-256 of the identity number>", shared
--     by every account the client opened on that identity (the number itself is never in it);
--   any other account (a client's own): the account itself, by its id (NULL here), as every
--     daily total was kept before, so those totals stay valid as they are.
-- The key is made when a sub-account opens (identityKey in src/modules/identity and
-- identityLimitKey in src/modules/accounts) and never changes: a sub-account's identity cannot.

-- Accounts: the key. The sub-accounts opened before are keyed here from the check they were
-- opened on, by identityKey's rules (keep them in step): a BVN checked by USSD code is that BVN,
-- a vNIN counts upper case, a company is its registry (RC, BN, IT) and its number without the
-- prefix or leading zeros.
ALTER TABLE accounts ADD COLUMN daily_limit_key text;
UPDATE accounts a
   SET daily_limit_key = 'person:' || a.client_id || ':' || CASE v.type
         WHEN 'BVNUSSD' THEN 'BVN:' || encode(sha256(convert_to(v.number, 'UTF8')), 'hex')
         WHEN 'vNIN' THEN 'vNIN:' || encode(sha256(convert_to(upper(v.number), 'UTF8')), 'hex')
         WHEN 'CAC' THEN 'CAC:' || encode(sha256(convert_to(
             coalesce(v.record->>'companyType', '')
               || regexp_replace(regexp_replace(v.number, '^(RC|BN|IT)', '', 'i'), '^0+', ''),
             'UTF8')), 'hex')
         ELSE v.type || ':' || encode(sha256(convert_to(v.number, 'UTF8')), 'hex')
       END
  FROM identity_verifications v
 WHERE v.id = a.identity_verification_id AND a.is_sub_account;

-- Transfers: the key an Outwards transfer counted under, so that its failure gives the amount
-- back to the same total. Only a Processing transfer can still fail: those of keyed accounts
-- get their key here; NULL (every other row) means the account's id.
ALTER TABLE transfers ADD COLUMN daily_limit_key text;
UPDATE transfers t SET daily_limit_key = a.daily_limit_key
  FROM accounts a
 WHERE a.id = t.account_id AND a.daily_limit_key IS NOT NULL
   AND t.type = 'Outwards' AND t.status = 'Processing';

-- Daily totals: by key. A sub-account's totals move under its identity's key, summed with its
-- siblings'; every other account's key is its id, so its rows stay as they are.
ALTER TABLE daily_outbound_totals RENAME COLUMN account_id TO limit_key;
WITH moved AS (
  DELETE FROM daily_outbound_totals d USING accounts a
   WHERE a.id = d.limit_key AND a.daily_limit_key IS NOT NULL
  RETURNING a.daily_limit_key AS limit_key, d.day, d.total_kobo)
INSERT INTO daily_outbound_totals (limit_key, day, total_kobo)
  SELECT limit_key, day, sum(total_kobo) FROM moved GROUP BY limit_key, day;

-- Locks. A key's row is written by batches placing for any account of its identity, and by
-- batches settling their transfers: two batches placing for two identities in opposite orders
-- would each hold one row and wait for the other's. So a key is locked like an account: named in
-- the batch's lockAccountIds, it is taken by ledger_lock_batch (0014) with the accounts' locks,
-- in their one global order, before any row is written; a main account's key is its id, the
-- same lock. Every writer of daily_outbound_totals holds its row's key lock (the auto-sweep,
-- outside the batch call, takes it in its own statement), so none waits on another's row.

-- Transfers: placement (0014) counting under the transfer's key (step 7).
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
        PERFORM transfer_refuse('IDEMPOTENCY_KEY_REUSED');
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
    PERFORM transfer_refuse(p_item->'refusal'->>'code', p_item->'refusal'->>'message');
  END IF;
  -- 4. The accounts are still Active, read under the batch's locks.
  FOR v_check IN SELECT * FROM jsonb_array_elements(coalesce(p_item->'mustBeActive', '[]'))
  LOOP
    PERFORM 1 FROM accounts WHERE id = v_check->>'accountId' AND status = 'Active';
    IF NOT FOUND THEN
      PERFORM transfer_refuse(v_check->>'code', v_check->>'message');
    END IF;
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
    PERFORM transfer_refuse('CONFLICT');
  END IF;
  IF p_item ? 'inward' THEN
    -- FROM, not SELECT (f()).*: the latter calls the function once per column.
    INSERT INTO transfers SELECT * FROM jsonb_populate_record(NULL::transfers, p_item->'inward');
  END IF;
  -- 6. The money: posted (intra-bank) or held (NIP). Insufficient funds (OIB01) refuse the item
  --    (apply_transfer_batch catches it: a block here would cost a second subtransaction per item).
  IF v_journal IS NOT NULL THEN
    PERFORM ledger_post_json(v_journal);
  END IF;
  IF v_hold IS NOT NULL THEN
    PERFORM ledger_hold_json(v_hold);
  END IF;
  -- 7. The day's outbound total under the transfer's daily limit key (the row keeps the key, so
  --    a failure gives back to the same total), this transfer included, against the limit of
  --    the debit account's KYC level. The key may be shared by accounts of one identity that
  --    other batches are placing for: the batch holds its lock (its lockAccountIds name it), so
  --    no other batch writes the row meanwhile and the total is exact.
  INSERT INTO daily_outbound_totals AS d (limit_key, day, total_kobo)
    VALUES (coalesce(v_outward.daily_limit_key, v_outward.account_id),
            ((v_daily->>'madeAt')::timestamptz AT TIME ZONE 'UTC')::date,
            (v_daily->>'amount')::bigint)
    ON CONFLICT (limit_key, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
    RETURNING total_kobo INTO v_total;
  IF v_daily ? 'limit' AND v_total > (v_daily->>'limit')::bigint THEN
    PERFORM transfer_refuse('TRANSFER_LIMIT_EXCEEDED', v_daily->>'limitMessage');
  END IF;
  -- 8. Webhook events and the saved beneficiary, with the transfer or not at all.
  IF jsonb_array_length(coalesce(p_item->'events', '[]')) > 0 THEN
    PERFORM webhook_enqueue(p_item->'events', (p_item->>'now')::timestamptz);
  END IF;
  IF v_beneficiary IS NOT NULL THEN
    PERFORM beneficiary_save(v_beneficiary->>'id', v_client, v_beneficiary->>'bankCode',
      v_beneficiary->>'bankName', v_beneficiary->>'accountNumber',
      v_beneficiary->>'accountName', (p_item->>'now')::timestamptz);
  END IF;
  RETURN jsonb_build_object('kind', 'placed');
END $$;

-- Transfers: settlement (0015) giving a failure back under the key it counted under.
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
  IF p_item ? 'journal' THEN
    PERFORM ledger_post_json(p_item->'journal');
  END IF;
  -- A failure voids the hold, and the transfer no longer counts towards its day's limit: the
  -- amount comes off the total it was added to, under the key it was counted under (the batch
  -- holds that key's lock, as placement does; rows from before 0023 counted under the account).
  IF v_status = 'Failed' THEN
    PERFORM ledger_void_hold(v_transfer.hold_id, v_at);
    UPDATE daily_outbound_totals SET total_kobo = total_kobo - v_transfer.amount_kobo
     WHERE limit_key = coalesce(v_transfer.daily_limit_key, v_transfer.account_id)
       AND day = (v_transfer.created_at AT TIME ZONE 'UTC')::date;
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
      'callbackUrl', (SELECT callback_url FROM accounts WHERE id = v_transfer.account_id))), v_at);
  END IF;
  RETURN jsonb_build_object('kind', 'settled');
END $$;
