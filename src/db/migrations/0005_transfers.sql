-- Transfers in the published shape. Inbound credits land here now; outbound NIP and
-- intra-bank transfers extend it.
CREATE TABLE transfers (
  id                           text PRIMARY KEY,
  client_id                    text NOT NULL REFERENCES clients (id),
  account_id                   text NOT NULL REFERENCES accounts (id),
  type                         text NOT NULL CHECK (type IN ('Inwards', 'Outwards')),
  session_id                   text NOT NULL UNIQUE,
  name_enquiry_reference       text,
  payment_reference            text NOT NULL,
  provider                     text NOT NULL,
  provider_channel             text NOT NULL,
  provider_channel_code        text NOT NULL,
  destination_institution_code text NOT NULL,
  credit_account_name          text NOT NULL,
  credit_account_number        text NOT NULL,
  credit_bank_code             text NOT NULL,
  credit_kyc_level             text,
  debit_account_name           text NOT NULL,
  debit_account_number         text NOT NULL,
  debit_bank_code              text NOT NULL,
  debit_kyc_level              text,
  transaction_location         text NOT NULL DEFAULT '',
  narration                    text NOT NULL DEFAULT '',
  amount_kobo                  bigint NOT NULL CHECK (amount_kobo > 0),
  fee_kobo                     bigint NOT NULL DEFAULT 0 CHECK (fee_kobo >= 0),
  vat_kobo                     bigint NOT NULL DEFAULT 0 CHECK (vat_kobo >= 0),
  stamp_duty_kobo              bigint NOT NULL DEFAULT 0 CHECK (stamp_duty_kobo >= 0),
  response_code                text,
  response_message             text,
  status                       text NOT NULL
                               CHECK (status IN ('Created', 'Processing', 'Completed', 'Failed', 'Reversed')),
  is_reversed                  boolean NOT NULL DEFAULT false,
  reversal_reference           text,
  created_at                   timestamptz NOT NULL,
  updated_at                   timestamptz NOT NULL,
  approved_at                  timestamptz,
  declined_at                  timestamptz
);
CREATE INDEX transfers_account_created_idx ON transfers (account_id, created_at DESC, id DESC);
CREATE INDEX transfers_client_created_idx ON transfers (client_id, created_at DESC, id DESC);
