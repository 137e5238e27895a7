-- Completes the checkout session a payment pays, inside the payment's own batch item (a claim:
-- ledger/batch.ts, batch_run_claims), after the method's owner accepted the payment
-- (virtual_account_collect, ussd_reference_collect), so the session, its checkout.payment event
-- and the money commit together or not at all. The claim's lock is the session's order (its
-- client and referenceCode): the runner takes it before the item, so the payments of every
-- session of one order are decided one at a time, across batches and processes.
-- A session that is no longer Pending, or whose order another session was paid for, refuses the
-- payment with the closed code of the method it came by (batch_refuse: the whole item rolls
-- back, no money moves, and the sender is answered as for a closed account). Once paid, every
-- method still open for the order is closed through its owner's function (this session's other
-- method, and those of the order's other sessions), so the customer is refused there at once.
CREATE OR REPLACE FUNCTION checkout_session_pay(p_claim jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_session checkout_sessions%ROWTYPE;
  v_method record;
  v_at timestamptz := (p_claim->>'at')::timestamptz;
  v_closed text := CASE p_claim->>'channel'
    WHEN 'USSD' THEN 'USSD_REFERENCE_CLOSED' ELSE 'VIRTUAL_ACCOUNT_CLOSED' END;
BEGIN
  SELECT * INTO v_session FROM checkout_sessions WHERE id = p_claim->>'sessionId';
  IF NOT FOUND THEN
    PERFORM batch_refuse(v_closed, 'The checkout session does not exist.');
  END IF;
  IF EXISTS (SELECT 1 FROM checkout_sessions
              WHERE client_id = v_session.client_id AND reference_code = v_session.reference_code
                AND id <> v_session.id AND status = 'Completed') THEN
    PERFORM batch_refuse(v_closed, 'The order of this checkout session is already paid.');
  END IF;
  -- Expiry is the method's to judge (a method opened at the session's last moment may be paid
  -- after it); the session only has to be unpaid.
  UPDATE checkout_sessions
     SET status = 'Completed', channel = p_claim->>'channel', transfer_id = p_claim->>'transferId',
         paid_kobo = (p_claim->>'paidKobo')::bigint, fees_kobo = (p_claim->>'feesKobo')::bigint,
         paid_at = (p_claim->>'paidAt')::timestamptz, updated_at = v_at
   WHERE id = v_session.id AND status = 'Pending';
  IF NOT FOUND THEN
    PERFORM batch_refuse(v_closed, 'The checkout session has been paid already.');
  END IF;
  PERFORM webhook_enqueue(jsonb_build_array(p_claim->'event'), v_at);
  -- The method just paid is Paid by now: its owner's close leaves it as it is.
  FOR v_method IN
    SELECT virtual_account_id, ussd_reference_id FROM checkout_sessions
     WHERE client_id = v_session.client_id AND reference_code = v_session.reference_code
     ORDER BY id
  LOOP
    IF v_method.virtual_account_id IS NOT NULL THEN
      PERFORM virtual_account_close(v_method.virtual_account_id, v_at);
    END IF;
    IF v_method.ussd_reference_id IS NOT NULL THEN
      PERFORM ussd_reference_close(v_method.ussd_reference_id, v_at);
    END IF;
  END LOOP;
END $$;
