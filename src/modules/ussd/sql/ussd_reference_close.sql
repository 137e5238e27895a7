-- Closes a USSD reference for payments when its purpose is gone elsewhere: a checkout session
-- (modules/checkout) whose order was paid by another method calls it in that payment's own
-- batch item. A reference has no closed status: it expires now (if later), so a payment the
-- customer's bank completes from now on is refused (ussd_reference_collect judges expiry by when
-- the bank completed it) and the status queries stop after their grace. A Paid one is left as
-- it is.
CREATE OR REPLACE FUNCTION ussd_reference_close(p_id text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ussd_references SET expires_at = p_at, updated_at = p_at
   WHERE id = p_id AND status = 'Pending' AND expires_at > p_at;
END $$;
