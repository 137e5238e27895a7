-- Outbound transfers: name enquiries a transfer must quote, beneficiaries, idempotency keys, and
-- the columns NIP's two-phase flow needs (the hold, the status-query schedule).
CREATE TABLE name_enquiries (
  session_id      text PRIMARY KEY,
  client_id       text NOT NULL REFERENCES clients (id),
  bank_code       text NOT NULL,
  account_number  text NOT NULL,
  account_name    text NOT NULL,
  kyc_level       text NOT NULL,
  bank_verification_number text,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL
);

CREATE TABLE beneficiaries (
  id             text PRIMARY KEY,
  client_id      text NOT NULL REFERENCES clients (id),
  bank_code      text NOT NULL,
  bank_name      text NOT NULL,
  account_number text NOT NULL,
  account_name   text NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  UNIQUE (client_id, bank_code, account_number)
);
CREATE INDEX beneficiaries_client_idx ON beneficiaries (client_id, created_at DESC, id DESC);

-- An intra-bank transfer is one session seen from both sides: the sender's Outwards row and
-- the recipient's Inwards row share the session id.
ALTER TABLE transfers DROP CONSTRAINT transfers_session_id_key;
CREATE UNIQUE INDEX transfers_session_type_idx ON transfers (session_id, type);

ALTER TABLE transfers ADD COLUMN request_hash text;
ALTER TABLE transfers ADD COLUMN hold_id text;
ALTER TABLE transfers ADD COLUMN status_queries integer NOT NULL DEFAULT 0;
ALTER TABLE transfers ADD COLUMN next_status_query_at timestamptz;

-- paymentReference is the client's idempotency key for outbound transfers.
CREATE UNIQUE INDEX transfers_client_payment_reference_idx
  ON transfers (client_id, payment_reference) WHERE type = 'Outwards';
CREATE INDEX transfers_status_query_idx
  ON transfers (next_status_query_at) WHERE status = 'Processing';

-- The Idempotency-Key header: one row per (client, key), committed with the money movement.
CREATE TABLE idempotency_keys (
  client_id    text NOT NULL REFERENCES clients (id),
  key          text NOT NULL,
  request_hash text NOT NULL,
  transfer_id  text NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, key)
);
