-- Checkout (modules/checkout) is told of a payment inside the payment's own batch item
-- (modules/checkout/sql/checkout_session_pay.sql, run as a claim): no worker looks for payments
-- any more, so what it scanned by goes.
DROP INDEX checkout_sessions_awaiting_payment;
ALTER TABLE checkout_sessions DROP COLUMN next_check_at;

-- A payment names the collection it pays by the row its owner decides on (a virtual account's
-- id, a USSD reference's id): checkout finds the session a payment completes by those, so it
-- keeps the USSD reference's id beside its digits (which the page shows and dials).
ALTER TABLE checkout_sessions ADD COLUMN ussd_reference_id text;
UPDATE checkout_sessions SET ussd_reference_id = ussd_references.id
  FROM ussd_references WHERE ussd_references.reference = checkout_sessions.ussd_reference;
CREATE INDEX checkout_sessions_by_virtual_account ON checkout_sessions (virtual_account_id);
CREATE INDEX checkout_sessions_by_ussd_reference ON checkout_sessions (ussd_reference_id);
