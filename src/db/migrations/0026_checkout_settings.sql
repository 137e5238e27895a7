-- Checkout bound to what the merchant registered (modules/checkout, docs/checkout.md).
-- The origins a client's checkout pages are served from (the widget's Origin, and where the
-- customer may be redirected), and the extra URLs its checkout.payment events may go to.
CREATE TABLE checkout_settings (
  client_id       text PRIMARY KEY REFERENCES clients (id),
  allowed_origins text[] NOT NULL DEFAULT '{}',
  webhook_urls    text[] NOT NULL DEFAULT '{}',
  updated_at      timestamptz NOT NULL
);

-- A referenceCode no longer names one session: each distinct config opened for it (amount,
-- customer, URLs, metadata, origin) is a session of its own, so a stranger who opens a merchant's
-- reference first never hands the merchant's page a session that someone else configured.
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_client_id_reference_code_key;
ALTER TABLE checkout_sessions
  ADD CONSTRAINT checkout_sessions_one_per_config UNIQUE (client_id, reference_code, request_hash);
