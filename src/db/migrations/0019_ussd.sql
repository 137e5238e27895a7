-- USSD payments (modules/ussd): a reference a customer dials at their own bank
-- (`*737*000*REFERENCE#`), paid once, into one of the client's accounts, through the USSD
-- gateway. A Pending reference past expires_at reads as Expired (decided on read, no sweep).
CREATE TABLE ussd_references (
  id                        text PRIMARY KEY,
  reference                 text NOT NULL UNIQUE,
  client_id                 text NOT NULL REFERENCES clients (id),
  merchant_name             text NOT NULL,
  -- The bank the reference was created for: its USSD code (737), which the dial string uses.
  ussd_bank_code            text NOT NULL,
  amount_kobo               bigint NOT NULL CHECK (amount_kobo > 0),
  settlement_account_id     text NOT NULL REFERENCES accounts (id),
  -- Account numbers never change: kept here so a read needs no other module's table.
  settlement_account_number text NOT NULL,
  -- Null for a reference made by checkout: its events go to the client's webhook URL.
  callback_url              text,
  status                    text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Paid')),
  expires_at                timestamptz NOT NULL,
  -- The accepted payment: the settlement account's Inwards transfer and what the gateway said.
  transfer_id               text,
  session_id                text UNIQUE,
  paid_ussd_bank_code       text,
  paid_kobo                 bigint,
  paid_at                   timestamptz,
  -- Status queries to the gateway, for a payment whose notice never arrived.
  status_queries            integer NOT NULL DEFAULT 0,
  next_status_query_at      timestamptz,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  CHECK ((status = 'Paid') = (transfer_id IS NOT NULL))
);
CREATE INDEX ussd_references_by_client ON ussd_references (client_id, created_at DESC, id DESC);
CREATE INDEX ussd_references_due_queries ON ussd_references (next_status_query_at)
  WHERE status = 'Pending' AND next_status_query_at IS NOT NULL;

-- The sandbox USSD gateway's own book (modules/ussd/providers/ussd-gateway-simulator.ts): the
-- references it issued and the payments the payers' banks completed on them. It stands in for
-- the aggregator, so it never reads the bank's tables, nor they its.
CREATE TABLE ussd_simulator_references (
  reference          text PRIMARY KEY,
  amount_kobo        bigint NOT NULL,
  merchant_name      text NOT NULL,
  expires_at         timestamptz NOT NULL,
  session_id         text,
  paid_ussd_bank_code text,
  paid_kobo          bigint,
  paid_at            timestamptz,
  created_at         timestamptz NOT NULL
);

-- USSD: accepts a payment on a reference, in the batch item's subtransaction and under the
-- batch's lock of the reference's id (payments on one reference are decided one at a time,
-- across batches and processes), or refuses it (OTP01 through transfer_refuse, which rolls the
-- whole item back: no money moves). A reference is paid once; expiry is judged by when the
-- payer's bank completed the payment (p_payment->>'receivedAt'), not by when this runs.
CREATE FUNCTION ussd_reference_collect(p_payment jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_reference ussd_references%ROWTYPE;
  v_amount bigint := (p_payment->>'amount')::bigint;
  v_at timestamptz := (p_payment->>'receivedAt')::timestamptz;
BEGIN
  SELECT * INTO v_reference FROM ussd_references WHERE id = p_payment->>'referenceId';
  IF NOT FOUND THEN
    PERFORM transfer_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference does not exist.');
  END IF;
  IF v_reference.status = 'Paid' THEN
    PERFORM transfer_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has been paid already.');
  END IF;
  IF v_at >= v_reference.expires_at THEN
    PERFORM transfer_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has expired.');
  END IF;
  IF v_amount <> v_reference.amount_kobo THEN
    PERFORM transfer_refuse('USSD_AMOUNT_MISMATCH', format(
      'The USSD reference takes exactly NGN %s; NGN %s was sent.',
      (v_reference.amount_kobo / 100.0)::numeric(20, 2), (v_amount / 100.0)::numeric(20, 2)));
  END IF;
  UPDATE ussd_references
     SET status = 'Paid', transfer_id = p_payment->>'transferId',
         session_id = p_payment->>'sessionId', paid_ussd_bank_code = p_payment->>'ussdBankCode',
         paid_kobo = v_amount, paid_at = v_at, next_status_query_at = NULL,
         updated_at = (p_payment->>'at')::timestamptz
   WHERE id = v_reference.id AND status = 'Pending';
  IF NOT FOUND THEN
    PERFORM transfer_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has been paid already.');
  END IF;
END $$;

-- Transfers: the batch runner of 0016, now handing an item that pays a collection to its
-- owner's function by the claim's kind (a virtual account, or a USSD reference), once the
-- transfer is placed or received, in the item's subtransaction: a refused payment rolls back
-- its transfer, journal and events.
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
        CASE v_item->'collection'->>'kind'
          WHEN 'virtualAccount' THEN PERFORM virtual_account_collect(v_item->'collection');
          WHEN 'ussdReference' THEN PERFORM ussd_reference_collect(v_item->'collection');
        END CASE;
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
