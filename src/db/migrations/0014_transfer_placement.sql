-- Placing transfers in one database call per batch (group commit). The service builds every
-- row, journal and webhook payload in TypeScript (one money codec, one view); these functions do
-- what must happen under the locks: idempotency claims, reference checks, the inserts, the money and
-- the daily limit, each item in its own subtransaction so one refusal never fails its neighbours.
-- Each table's SQL stays with its owner: a function per owner, called by the placement below.
-- Every function is plpgsql, even a one-statement one: plpgsql keeps its plans per connection,
-- where a SQL-language function called from another function is planned again at every call.

-- Ledger (src/ledger): locks for a batch. A batch runs each item in a subtransaction; had the
-- batch itself locked the account rows (FOR UPDATE), every update of such a row inside an item
-- would need a MultiXact to remember the batch's lock beside the item's update, and MultiXacts
-- are slow to make and to read back. So a batch takes transaction-level advisory locks instead,
-- one per account, in one global order (by the key), which is what keeps batches from any
-- number of processes from deadlocking; the rows themselves are locked by the items' own
-- updates. Two accounts whose ids hash alike share a lock: harmless, they only queue together.
CREATE FUNCTION ledger_lock_batch(p_account_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301, key)
     FROM (SELECT DISTINCT hashtext(account_id) AS key FROM unnest(p_account_ids) AS account_id
            ORDER BY 1) AS keys;
END $$;

-- Ledger: ledger_post and ledger_hold split into the lock and the work, so that a batch (which
-- holds its advisory locks) runs the work alone: the updates lock each row as they change it,
-- and their funds condition is re-checked on the latest row (READ COMMITTED), so the balance
-- rules hold without the explicit lock. Outside a batch nothing changes: lock, then work.
CREATE FUNCTION ledger_post_unlocked(
  p_journal_id text,
  p_kind text,
  p_narration text,
  p_reference text,
  p_transfer_id text,
  p_created_at timestamptz,
  p_account_ids text[],
  p_amounts bigint[],
  p_entry_narrations text[],
  p_release_hold_id text
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_count int := coalesce(array_length(p_account_ids, 1), 0);
  v_hold ledger_holds%ROWTYPE;
  v_account ledger_accounts%ROWTYPE;
  v_amount bigint;
  i int;
BEGIN
  IF v_count < 2 OR v_count <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'a journal needs two or more postings';
  END IF;
  IF (SELECT sum(amount) FROM unnest(p_amounts) AS amount) <> 0
     OR EXISTS (SELECT 1 FROM unnest(p_amounts) AS amount WHERE amount = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'journal does not balance';
  END IF;

  IF p_release_hold_id IS NOT NULL THEN
    UPDATE ledger_holds SET status = 'posted', resolved_at = p_created_at
      WHERE id = p_release_hold_id AND status = 'pending' AND account_id = ANY (p_account_ids)
      RETURNING * INTO v_hold;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'OIB03', MESSAGE = 'hold is not pending';
    END IF;
    UPDATE ledger_accounts SET held_kobo = held_kobo - v_hold.amount_kobo
      WHERE id = v_hold.account_id;
  END IF;

  INSERT INTO ledger_journals (id, kind, narration, reference, transfer_id, created_at)
    VALUES (p_journal_id, p_kind, p_narration, p_reference, p_transfer_id, p_created_at);

  FOR i IN 1 .. v_count LOOP
    v_amount := p_amounts[i];
    UPDATE ledger_accounts SET
        balance_kobo = balance_kobo + v_amount,
        entry_count = entry_count + 1,
        credit_count = credit_count + CASE WHEN v_amount > 0 THEN 1 ELSE 0 END,
        debit_count = debit_count + CASE WHEN v_amount < 0 THEN 1 ELSE 0 END,
        -- Entry times never go backwards within an account, so time ranges map to seq ranges.
        last_entry_at = greatest(last_entry_at, p_created_at)
      WHERE id = p_account_ids[i]
        AND (v_amount > 0 OR allow_negative OR balance_kobo + v_amount - held_kobo >= 0)
      RETURNING * INTO v_account;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = p_account_ids[i]) THEN
        RAISE EXCEPTION USING ERRCODE = 'OIB02', MESSAGE = 'unknown ledger account';
      END IF;
      RAISE EXCEPTION USING ERRCODE = 'OIB01', MESSAGE = 'insufficient funds',
        DETAIL = p_account_ids[i];
    END IF;
    INSERT INTO ledger_entries (account_id, seq, direction_seq, is_credit, journal_id,
        amount_kobo, balance_after_kobo, narration, created_at)
      VALUES (v_account.id, v_account.entry_count,
        CASE WHEN v_amount > 0 THEN v_account.credit_count ELSE v_account.debit_count END,
        v_amount > 0, p_journal_id, v_amount, v_account.balance_kobo,
        coalesce(p_entry_narrations[i], p_narration), v_account.last_entry_at);
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id text,
  p_kind text,
  p_narration text,
  p_reference text,
  p_transfer_id text,
  p_created_at timestamptz,
  p_account_ids text[],
  p_amounts bigint[],
  p_entry_narrations text[],
  p_release_hold_id text
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_lock_accounts(p_account_ids);
  PERFORM ledger_post_unlocked(p_journal_id, p_kind, p_narration, p_reference, p_transfer_id,
    p_created_at, p_account_ids, p_amounts, p_entry_narrations, p_release_hold_id);
END $$;

CREATE FUNCTION ledger_hold_unlocked(
  p_hold_id text,
  p_account_id text,
  p_amount bigint,
  p_reference text,
  p_created_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'OIB90', MESSAGE = 'hold amount must be positive';
  END IF;
  UPDATE ledger_accounts SET held_kobo = held_kobo + p_amount
    WHERE id = p_account_id AND (allow_negative OR balance_kobo - held_kobo - p_amount >= 0);
  IF NOT FOUND THEN
    IF NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = p_account_id) THEN
      RAISE EXCEPTION USING ERRCODE = 'OIB02', MESSAGE = 'unknown ledger account';
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'OIB01', MESSAGE = 'insufficient funds',
      DETAIL = p_account_id;
  END IF;
  INSERT INTO ledger_holds (id, account_id, amount_kobo, status, reference, created_at)
    VALUES (p_hold_id, p_account_id, p_amount, 'pending', p_reference, p_created_at);
END $$;

CREATE OR REPLACE FUNCTION ledger_hold(
  p_hold_id text,
  p_account_id text,
  p_amount bigint,
  p_reference text,
  p_created_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_lock_accounts(ARRAY[p_account_id]);
  PERFORM ledger_hold_unlocked(p_hold_id, p_account_id, p_amount, p_reference, p_created_at);
END $$;

-- Ledger: a journal or a hold as JSON (journalJson, holdJson in ledger-service.ts), inside a
-- batch that holds the batch locks of every account it names (ledger_lock_batch).
CREATE FUNCTION ledger_post_json(p_journal jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_post_unlocked(p_journal->>'id', p_journal->>'kind', p_journal->>'narration',
      p_journal->>'reference', p_journal->>'transferId', (p_journal->>'createdAt')::timestamptz,
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'accountIds')),
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'amounts')::bigint),
      ARRAY(SELECT jsonb_array_elements_text(p_journal->'narrations')),
      p_journal->>'releaseHoldId');
END $$;

CREATE FUNCTION ledger_hold_json(p_hold jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_hold_unlocked(p_hold->>'id', p_hold->>'accountId', (p_hold->>'amount')::bigint,
      p_hold->>'reference', (p_hold->>'createdAt')::timestamptz);
END $$;

-- Idempotency (src/idempotency): claims a key, or answers the claim that holds it.
CREATE FUNCTION idempotency_claim(
  p_client_id text, p_scope text, p_key text, p_request_hash text, p_resource_id text,
  p_created_at timestamptz,
  OUT claimed boolean, OUT request_hash text, OUT resource_id text
)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO idempotency_requests (client_id, scope, key, request_hash, resource_id, created_at)
    VALUES (p_client_id, p_scope, p_key, p_request_hash, p_resource_id, p_created_at)
    ON CONFLICT DO NOTHING;
  claimed := FOUND;
  IF NOT claimed THEN
    -- A concurrent claim of the key waited for its transaction above; its row is visible now.
    SELECT r.request_hash, r.resource_id INTO request_hash, resource_id
      FROM idempotency_requests r
     WHERE r.client_id = p_client_id AND r.scope = p_scope AND r.key = p_key;
  END IF;
END $$;

-- Idempotency: a key claimed in this transaction names another resource (the one it repeats).
CREATE FUNCTION idempotency_repoint(
  p_client_id text, p_scope text, p_key text, p_resource_id text
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_requests SET resource_id = p_resource_id
     WHERE client_id = p_client_id AND scope = p_scope AND key = p_key;
END $$;

-- Webhooks (src/webhooks): events into the outbox. Payloads arrive as JSON text so the stored
-- json keeps the field order of the view that rendered it.
CREATE FUNCTION webhook_enqueue(p_events jsonb, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_events (id, client_id, type, payload, callback_url, status,
        next_attempt_at, created_at, updated_at)
    SELECT e->>'id', e->>'clientId', e->>'type', (e->>'payload')::json, e->>'callbackUrl',
           'pending', p_at, p_at, p_at
      FROM jsonb_array_elements(p_events) AS e;
END $$;

-- Beneficiaries (src/modules/beneficiaries): saves one, or refreshes its name.
CREATE FUNCTION beneficiary_save(
  p_id text, p_client_id text, p_bank_code text, p_bank_name text, p_account_number text,
  p_account_name text, p_at timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO beneficiaries (id, client_id, bank_code, bank_name, account_number, account_name,
        created_at, updated_at) VALUES (p_id, p_client_id, p_bank_code, p_bank_name,
        p_account_number, p_account_name, p_at, p_at)
    ON CONFLICT (client_id, bank_code, account_number)
      DO UPDATE SET account_name = EXCLUDED.account_name, updated_at = EXCLUDED.updated_at;
END $$;

-- Transfers: a refusal of one item. MESSAGE is the error code, DETAIL its message (or empty).
-- SQLSTATE OTP01 is caught per item; anything else fails the batch, which the caller retries
-- (deadlock) or reports.
CREATE FUNCTION transfer_refuse(p_code text, p_message text DEFAULT '') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'OTP01', MESSAGE = p_code, DETAIL = coalesce(p_message, '');
END $$;

-- Transfers: an item of a batch that failed for a reason that is not a refusal (a bug, a broken
-- row): it alone is rolled back, and its caller alone gets an error.
CREATE FUNCTION transfer_item_failure(p_sqlstate text, p_message text) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  RETURN jsonb_build_object('kind', 'failed', 'sqlstate', p_sqlstate, 'message', p_message);
END $$;

-- Transfers: the earlier Outwards transfer of a client under a reference, as a replay of it
-- (the key, if any, repointed) when the request is the same, refused when it is not.
CREATE FUNCTION transfer_replay_of(p_item jsonb, p_earlier_id text, p_earlier_hash text)
RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF p_earlier_hash IS DISTINCT FROM p_item->>'requestHash' THEN
    PERFORM transfer_refuse('DUPLICATE_REFERENCE');
  END IF;
  IF p_item ? 'idempotencyKey' THEN
    PERFORM idempotency_repoint(p_item->>'clientId', p_item->>'idempotencyScope',
      p_item->>'idempotencyKey', p_earlier_id);
  END IF;
  RETURN jsonb_build_object('kind', 'replay', 'transferId', p_earlier_id);
END $$;

-- Transfers: one item of a batch (see apply_transfer_batch), in the caller's subtransaction.
CREATE FUNCTION transfer_place_one(p_item jsonb) RETURNS jsonb
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
  -- 7. The day's outbound total, this transfer included, against the daily limit. The row is
  --    the debit account's, whose ledger lock is held, so the total is exact.
  INSERT INTO daily_outbound_totals AS d (account_id, day, total_kobo)
    VALUES (v_daily->>'accountId', ((v_daily->>'madeAt')::timestamptz AT TIME ZONE 'UTC')::date,
            (v_daily->>'amount')::bigint)
    ON CONFLICT (account_id, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
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

-- Transfers: a batch in one call: placements ('place', below), NIP settlements ('settle') and
-- inbound credits ('receive', migration 0015). Every account the batch will touch is locked
-- first, once, in one global order (ledger_lock_batch), so batches from any number of server
-- processes cannot deadlock on accounts. Each item runs in its own subtransaction: a refusal
-- (or a debit beyond the funds, OIB01) rolls back that item alone and answers
-- {kind: refused, code, message}; any other failure of an item answers {kind: failed}; a
-- deadlock fails the batch, which the caller retries whole. One subtransaction per item: keep
-- batches within the 64 that PostgreSQL tracks per transaction without overflowing.
CREATE FUNCTION apply_transfer_batch(p_kind text, p_items jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_results jsonb := '[]';
  v_code text;
  v_message text;
BEGIN
  PERFORM ledger_lock_batch(ARRAY(
    SELECT jsonb_array_elements_text(item->'lockAccountIds')
      FROM jsonb_array_elements(p_items) AS item));
  FOR v_item IN SELECT * FROM jsonb_array_elements(p_items) LOOP
    BEGIN
      v_results := v_results || jsonb_build_array(CASE p_kind
        WHEN 'place' THEN transfer_place_one(v_item)
        WHEN 'settle' THEN transfer_settle_one(v_item)
        WHEN 'receive' THEN transfer_receive_one(v_item)
      END);
    EXCEPTION WHEN SQLSTATE 'OTP01' THEN
      GET STACKED DIAGNOSTICS v_code = MESSAGE_TEXT, v_message = PG_EXCEPTION_DETAIL;
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', v_code, 'message', nullif(v_message, '')));
    WHEN SQLSTATE 'OIB01' THEN
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'refused', 'code', 'INSUFFICIENT_FUNDS', 'message', NULL));
    WHEN OTHERS THEN
      IF SQLSTATE IN ('40P01', '40001') THEN
        RAISE;
      END IF;
      v_results := v_results || jsonb_build_array(transfer_item_failure(SQLSTATE, SQLERRM));
    END;
  END LOOP;
  RETURN v_results;
END $$;
