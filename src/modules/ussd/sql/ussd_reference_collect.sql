-- Accepts a payment on a USSD reference, in the batch item's subtransaction and under the
-- batch's lock of the reference's id (payments on one reference are decided one at a time,
-- across batches and processes), or refuses it (OTP01 through transfer_refuse, which rolls the
-- whole item back: no money moves). A reference is paid once; expiry is judged by when the
-- payer's bank completed the payment (p_payment->>'receivedAt'), not by when this runs.
CREATE OR REPLACE FUNCTION ussd_reference_collect(p_payment jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_reference ussd_references%ROWTYPE;
  v_amount bigint := (p_payment->>'amount')::bigint;
  v_at timestamptz := (p_payment->>'receivedAt')::timestamptz;
BEGIN
  SELECT * INTO v_reference FROM ussd_references WHERE id = p_payment->>'referenceId';
  IF NOT FOUND THEN
    PERFORM batch_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference does not exist.');
  END IF;
  IF v_reference.status = 'Paid' THEN
    PERFORM batch_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has been paid already.');
  END IF;
  IF v_at >= v_reference.expires_at THEN
    PERFORM batch_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has expired.');
  END IF;
  IF v_amount <> v_reference.amount_kobo THEN
    PERFORM batch_refuse('USSD_AMOUNT_MISMATCH', format(
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
    PERFORM batch_refuse('USSD_REFERENCE_CLOSED', 'The USSD reference has been paid already.');
  END IF;
END $$;
