-- VAS (modules/vas): the catalogue (services, their categories, the categories' products) and
-- purchases paid from a client's account through a biller. The catalogue is data: seeded by
-- migration 0018, changed by operators through the admin API.
CREATE TABLE vas_services (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  identifier   text NOT NULL UNIQUE CHECK (identifier IN ('AIRTIME', 'DATA', 'CABLETV', 'UTILITY')),
  description  text NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE vas_categories (
  id                   text PRIMARY KEY,
  service_id           text NOT NULL REFERENCES vas_services (id),
  name                 text NOT NULL,
  identifier           text NOT NULL,
  vendor               text NOT NULL,
  is_fixed_amount      boolean NOT NULL,
  description          text NOT NULL,
  logo_url             text NOT NULL DEFAULT '',
  -- The published shape: { flatAmount, percentageAmount, minCap, maxCap } (naira and percent),
  -- or null: what the biller pays on a sale, passed on to the client.
  provider_commission  jsonb,
  -- Variable-amount categories (airtime, utility): the amounts a purchase may carry.
  min_amount_kobo      bigint NOT NULL DEFAULT 100 CHECK (min_amount_kobo > 0),
  max_amount_kobo      bigint NOT NULL DEFAULT 5000000 CHECK (max_amount_kobo >= min_amount_kobo),
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX vas_categories_by_service ON vas_categories (service_id, name);

CREATE TABLE vas_products (
  category_id      text NOT NULL REFERENCES vas_categories (id),
  bundle_code      text NOT NULL,
  name             text NOT NULL,
  -- Null for a product whose amount the buyer chooses (a cable "Top Up").
  amount_kobo      bigint CHECK (amount_kobo > 0),
  duration         text NOT NULL,
  is_amount_fixed  boolean NOT NULL,
  -- The order the catalogue lists them in.
  position         integer NOT NULL,
  PRIMARY KEY (category_id, bundle_code)
);

CREATE TABLE vas_purchases (
  id                 text PRIMARY KEY,
  client_id          text NOT NULL REFERENCES clients (id),
  account_id         text NOT NULL REFERENCES accounts (id),
  debit_account_number text NOT NULL,
  service            text NOT NULL CHECK (service IN ('AIRTIME', 'DATA', 'CABLETV', 'UTILITY')),
  category_id        text NOT NULL REFERENCES vas_categories (id),
  category_identifier text NOT NULL,
  -- 32 lower-case hex characters: ours, sent to the biller, unique.
  reference          text NOT NULL UNIQUE,
  status             text NOT NULL CHECK (status IN ('pending', 'successful', 'failed')),
  amount_kobo        bigint NOT NULL CHECK (amount_kobo > 0),
  commission_kobo    bigint NOT NULL DEFAULT 0 CHECK (commission_kobo >= 0),
  channel            text NOT NULL,
  beneficiary        text NOT NULL,
  bundle_code        text,
  vend_type          text,
  receiver_name      text,
  utility_token      text,
  failure_message    text,
  status_url         text,
  hold_id            text NOT NULL,
  request_hash       text NOT NULL,
  status_queries     integer NOT NULL DEFAULT 0,
  next_status_query_at timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  completed_at       timestamptz
);
CREATE INDEX vas_purchases_by_client ON vas_purchases (client_id, created_at DESC, id DESC);
CREATE INDEX vas_purchases_due ON vas_purchases (next_status_query_at) WHERE status = 'pending';

-- The ledger's GL accounts for VAS (the ledger owns ledger_accounts; its GL accounts are seeded
-- by migrations, as 0002 did): what customers paid for purchases, owed to the biller; and the
-- commission the biller owes the bank for them, passed on to the client (a receivable: it runs
-- negative until the biller settles).
INSERT INTO ledger_accounts (id, kind, name, allow_negative, created_at) VALUES
  ('gl.vas_biller_settlement', 'internal', 'VAS biller settlement', false, now()),
  ('gl.vas_commission_receivable', 'internal', 'VAS commission receivable', true, now());

-- VAS: refuses the batch item being applied (apply_vas_batch answers it {kind: refused}).
CREATE FUNCTION vas_refuse(p_code text, p_message text DEFAULT '') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'OTP01', MESSAGE = p_code, DETAIL = coalesce(p_message, '');
END $$;

-- VAS: places one purchase: the Idempotency-Key claim (a replay answers first), the debit
-- account Active under the batch's lock, the purchase row, and the hold on its price. A debit
-- beyond the available balance raises OIB01 (insufficient funds) from the hold.
CREATE FUNCTION vas_place_one(p_item jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_purchase vas_purchases%ROWTYPE := jsonb_populate_record(NULL::vas_purchases, p_item->'purchase');
  v_claim record;
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
  RETURN jsonb_build_object('kind', 'placed');
END $$;

-- VAS: applies the biller's answer to a purchase still pending (anything else was settled by a
-- concurrent worker and is answered 'unchanged'): successful posts the hold (the price to the
-- biller settlement GL, the commission to the client), failed voids it, pending schedules the
-- next status query. Events (the vas.transaction webhook) commit with the change.
CREATE FUNCTION vas_settle_one(p_item jsonb) RETURNS jsonb
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

-- VAS: a batch of placements ('place') or settlements ('settle') in one call, as
-- apply_transfer_batch does for transfers: every account locked once, in one global order; each
-- item in its own subtransaction, so one refusal or failure answers that item alone.
CREATE FUNCTION apply_vas_batch(p_kind text, p_items jsonb) RETURNS jsonb
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
        WHEN 'place' THEN vas_place_one(v_item)
        WHEN 'settle' THEN vas_settle_one(v_item)
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
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'kind', 'failed', 'sqlstate', SQLSTATE, 'message', SQLERRM));
    END;
  END LOOP;
  RETURN v_results;
END $$;
