-- Virtual accounts (modules/virtual-accounts): time-bound NUBANs that collect one expected
-- payment and settle it to one of the client's accounts. The number comes from the same serial
-- as every account, so a virtual account and an account never share a number.
CREATE TABLE virtual_accounts (
  id                     text PRIMARY KEY,
  client_id              text NOT NULL REFERENCES clients (id),
  account_number         text NOT NULL UNIQUE,
  account_name           text NOT NULL,
  settlement_account_id  text NOT NULL REFERENCES accounts (id),
  -- Account numbers never change: kept here so a read needs no other module's table.
  settlement_account_number text NOT NULL,
  amount_control         text NOT NULL CHECK (amount_control IN ('Fixed', 'UnderPayment', 'OverPayment')),
  amount_kobo            bigint NOT NULL CHECK (amount_kobo > 0),
  valid_for_seconds      integer NOT NULL CHECK (valid_for_seconds > 0),
  expires_at             timestamptz NOT NULL,
  callback_url           text,
  external_reference     text,
  -- Fingerprint of the creating request: the same externalReference replays only the same body.
  request_hash           text NOT NULL,
  -- Active until it is paid (Paid) or deleted (Deleted); Expired is Active past expires_at,
  -- decided whenever it is read or paid, so no sweep has to run for it to hold.
  status                 text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Paid', 'Deleted')),
  paid_kobo              bigint NOT NULL DEFAULT 0,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE UNIQUE INDEX virtual_accounts_external_reference
  ON virtual_accounts (client_id, external_reference) WHERE external_reference IS NOT NULL;
CREATE INDEX virtual_accounts_by_client ON virtual_accounts (client_id, created_at DESC, id DESC);

-- The payments a virtual account accepted: each is an Inwards transfer on the settlement account.
CREATE TABLE virtual_account_payments (
  transfer_id         text PRIMARY KEY,
  virtual_account_id  text NOT NULL REFERENCES virtual_accounts (id),
  client_id           text NOT NULL REFERENCES clients (id),
  session_id          text NOT NULL,
  created_at          timestamptz NOT NULL
);
CREATE INDEX virtual_account_payments_by_account
  ON virtual_account_payments (virtual_account_id, created_at);
CREATE UNIQUE INDEX virtual_account_payments_by_session
  ON virtual_account_payments (client_id, session_id);

-- Virtual accounts: accepts a payment into a virtual account, in the batch item's
-- subtransaction and under the batch's lock of the virtual account's id (payments into one
-- account are decided one at a time, across batches and processes), or refuses it
-- (OTP01 through transfer_refuse, which rolls the whole item back: no money moves). One payment
-- per account: the first accepted one marks it Paid. The time that decides expiry is when the
-- bank received the payment (p_payment->>'receivedAt'), not when this runs.
CREATE FUNCTION virtual_account_collect(p_payment jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_account virtual_accounts%ROWTYPE;
  v_amount bigint := (p_payment->>'amount')::bigint;
  v_at timestamptz := (p_payment->>'receivedAt')::timestamptz;
BEGIN
  SELECT * INTO v_account FROM virtual_accounts WHERE id = p_payment->>'virtualAccountId';
  IF NOT FOUND OR v_account.status = 'Deleted' THEN
    PERFORM transfer_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account does not exist.');
  END IF;
  IF v_account.status = 'Paid' THEN
    PERFORM transfer_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account has been paid already.');
  END IF;
  IF v_at >= v_account.expires_at THEN
    PERFORM transfer_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account has expired.');
  END IF;
  IF (v_account.amount_control = 'Fixed' AND v_amount <> v_account.amount_kobo)
     OR (v_account.amount_control = 'UnderPayment' AND v_amount > v_account.amount_kobo)
     OR (v_account.amount_control = 'OverPayment' AND v_amount < v_account.amount_kobo) THEN
    PERFORM transfer_refuse('VIRTUAL_ACCOUNT_AMOUNT_REFUSED', format(
      'The virtual account takes %s NGN %s; NGN %s was sent.',
      CASE v_account.amount_control WHEN 'Fixed' THEN 'exactly'
        WHEN 'UnderPayment' THEN 'at most' ELSE 'at least' END,
      (v_account.amount_kobo / 100.0)::numeric(20, 2), (v_amount / 100.0)::numeric(20, 2)));
  END IF;
  -- Still Active: a DELETE (which does not take the batch's locks) may have committed since the
  -- read above; the UPDATE waits for it and sees its outcome.
  UPDATE virtual_accounts SET status = 'Paid', paid_kobo = v_amount, updated_at = v_at
   WHERE id = v_account.id AND status = 'Active';
  IF NOT FOUND THEN
    PERFORM transfer_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account does not exist.');
  END IF;
  INSERT INTO virtual_account_payments (transfer_id, virtual_account_id, client_id, session_id,
    created_at)
  VALUES (p_payment->>'transferId', v_account.id, v_account.client_id, p_payment->>'sessionId', v_at);
END $$;

-- Transfers: the batch runner of 0014, now also handing an item that pays a virtual account to
-- the virtual accounts module (virtual_account_collect) once the transfer is placed or received,
-- in the item's subtransaction: a refused payment rolls back its transfer, journal and events.
CREATE OR REPLACE FUNCTION apply_transfer_batch(p_kind text, p_items jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_result jsonb;
  v_results jsonb := '[]';
  v_code text;
  v_message text;
BEGIN
  PERFORM ledger_lock_batch(ARRAY(
    SELECT jsonb_array_elements_text(item->'lockAccountIds')
      FROM jsonb_array_elements(p_items) AS item));
  FOR v_item IN SELECT * FROM jsonb_array_elements(p_items) LOOP
    BEGIN
      v_result := CASE p_kind
        WHEN 'place' THEN transfer_place_one(v_item)
        WHEN 'settle' THEN transfer_settle_one(v_item)
        WHEN 'receive' THEN transfer_receive_one(v_item)
      END;
      IF v_item ? 'collection' AND v_result->>'kind' IN ('placed', 'received') THEN
        PERFORM virtual_account_collect(v_item->'collection');
      END IF;
      v_results := v_results || jsonb_build_array(v_result);
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
