-- Accepts a payment into a virtual account, in the batch item's subtransaction and under the
-- batch's lock of the virtual account's id (payments into one account are decided one at a
-- time, across batches and processes), or refuses it (OTP01 through transfer_refuse, which rolls
-- the whole item back: no money moves). One payment per account: the first accepted one marks
-- it Paid. The time that decides expiry is when the bank received the payment
-- (p_payment->>'receivedAt'), not when this runs.
CREATE OR REPLACE FUNCTION virtual_account_collect(p_payment jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_account virtual_accounts%ROWTYPE;
  v_amount bigint := (p_payment->>'amount')::bigint;
  v_at timestamptz := (p_payment->>'receivedAt')::timestamptz;
BEGIN
  SELECT * INTO v_account FROM virtual_accounts WHERE id = p_payment->>'virtualAccountId';
  IF NOT FOUND OR v_account.status = 'Deleted' THEN
    PERFORM batch_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account does not exist.');
  END IF;
  IF v_account.status = 'Paid' THEN
    PERFORM batch_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account has been paid already.');
  END IF;
  IF v_at >= v_account.expires_at THEN
    PERFORM batch_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account has expired.');
  END IF;
  IF (v_account.amount_control = 'Fixed' AND v_amount <> v_account.amount_kobo)
     OR (v_account.amount_control = 'UnderPayment' AND v_amount > v_account.amount_kobo)
     OR (v_account.amount_control = 'OverPayment' AND v_amount < v_account.amount_kobo) THEN
    PERFORM batch_refuse('VIRTUAL_ACCOUNT_AMOUNT_REFUSED', format(
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
    PERFORM batch_refuse('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account does not exist.');
  END IF;
  INSERT INTO virtual_account_payments (transfer_id, virtual_account_id, client_id, session_id,
    created_at)
  VALUES (p_payment->>'transferId', v_account.id, v_account.client_id, p_payment->>'sessionId', v_at);
END $$;
