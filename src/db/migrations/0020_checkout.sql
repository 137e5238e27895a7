-- Checkout (modules/checkout): a payment a merchant's web page collects with the Checkout.js
-- widget. The customer pays by bank transfer (a virtual account made for the session) or USSD
-- (a reference made for it); the session completes when either is paid, once.
CREATE TABLE checkout_sessions (
  id                        text PRIMARY KEY,
  client_id                 text NOT NULL REFERENCES clients (id),
  -- The merchant's own key for the payment: the same config reopens the session.
  reference_code            text NOT NULL,
  -- Fingerprint of what the reference code stands for (amount, currency, fee bearer, account).
  request_hash              text NOT NULL,
  amount_kobo               bigint NOT NULL CHECK (amount_kobo > 0),
  fee_bearer                text NOT NULL CHECK (fee_bearer IN ('account', 'customer')),
  customer                  jsonb NOT NULL,
  merchant_name             text NOT NULL,
  settlement_account_id     text NOT NULL REFERENCES accounts (id),
  settlement_account_number text NOT NULL,
  redirect_url              text,
  webhook_url               text,
  custom_icon_url           text,
  metadata                  jsonb,
  -- The merchant page's origin: the only window the hosted page tells the result to.
  origin                    text,
  status                    text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Completed')),
  -- The payment methods opened for it (the latest of each).
  virtual_account_id        text,
  ussd_reference            text,
  -- The payment that completed it.
  channel                   text CHECK (channel IN ('BANK_TRANSFER', 'USSD')),
  transfer_id               text,
  paid_kobo                 bigint,
  fees_kobo                 bigint,
  paid_at                   timestamptz,
  -- When the completion worker next looks for its payment (null: nothing to look for).
  next_check_at             timestamptz,
  expires_at                timestamptz NOT NULL,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  UNIQUE (client_id, reference_code)
);
-- What the completion worker looks at: open sessions with a method that may have been paid.
CREATE INDEX checkout_sessions_awaiting_payment ON checkout_sessions (next_check_at)
  WHERE status = 'Pending' AND next_check_at IS NOT NULL;
