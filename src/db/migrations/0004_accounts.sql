-- Customer accounts as the published API shows them. Each is backed by a ledger account with
-- the same id, which holds its balance.
CREATE SEQUENCE account_number_serial START WITH 100000001 MAXVALUE 999999999;

CREATE TABLE accounts (
  id                    text PRIMARY KEY REFERENCES ledger_accounts (id),
  client_id             text NOT NULL REFERENCES clients (id),
  account_number        text NOT NULL UNIQUE CHECK (account_number ~ '^[0-9]{10}$'),
  account_name          text NOT NULL,
  account_type          text NOT NULL CHECK (account_type IN ('Current', 'Savings')),
  currency_code         text NOT NULL DEFAULT 'NGN',
  is_sub_account        boolean NOT NULL DEFAULT false,
  status                text NOT NULL DEFAULT 'Active'
                        CHECK (status IN ('Active', 'Frozen', 'Closed')),
  kyc_level             text NOT NULL DEFAULT '1',
  external_reference    text,
  callback_url          text,
  metadata              jsonb NOT NULL DEFAULT '{}',
  notification_settings jsonb NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX accounts_client_list_idx
  ON accounts (client_id, is_sub_account, created_at DESC, id DESC);
CREATE UNIQUE INDEX accounts_client_external_reference_idx
  ON accounts (client_id, external_reference) WHERE external_reference IS NOT NULL;

ALTER TABLE clients ADD COLUMN main_account_id text REFERENCES accounts (id);
