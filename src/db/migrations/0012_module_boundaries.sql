-- Each module reads and writes only its own tables (docs/architecture.md).

-- One idempotency scheme for every POST that honours Idempotency-Key: per client and scope (the
-- kind of request), the key, the fingerprint of the request that first used it, and the id of
-- the resource it made. Claimed in the same transaction as the effect.
CREATE TABLE idempotency_requests (
  client_id    text NOT NULL REFERENCES clients (id),
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  resource_id  text NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, scope, key)
);
INSERT INTO idempotency_requests (client_id, scope, key, request_hash, resource_id, created_at)
  SELECT client_id, 'transfers', key, request_hash, transfer_id, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;

-- A verification keeps the number of the account it charged, so identity never reads accounts.
ALTER TABLE identity_verifications ADD COLUMN debit_account_number text;
UPDATE identity_verifications v SET debit_account_number = a.account_number
  FROM accounts a WHERE a.id = v.debit_account_id;
ALTER TABLE identity_verifications ALTER COLUMN debit_account_number SET NOT NULL;

-- The ledger's balances, as other modules may read them (ledger_accounts stays the ledger's).
CREATE VIEW ledger_account_balances AS
  SELECT id AS account_id, balance_kobo, held_kobo FROM ledger_accounts;
