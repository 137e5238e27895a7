-- The double-entry ledger. Every journal is a set of entries summing to zero; an account's
-- balance is the sum of its entries (credit positive, from the account holder's view); each
-- account numbers its entries 1, 2, 3... without gaps. Holds reserve funds for two-phase
-- transfers: available = balance - held.
CREATE TABLE ledger_accounts (
  id             text PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('customer', 'internal')),
  name           text NOT NULL,
  allow_negative boolean NOT NULL DEFAULT false,
  balance_kobo   bigint NOT NULL DEFAULT 0,
  held_kobo      bigint NOT NULL DEFAULT 0 CHECK (held_kobo >= 0),
  entry_count    bigint NOT NULL DEFAULT 0,
  credit_count   bigint NOT NULL DEFAULT 0,
  debit_count    bigint NOT NULL DEFAULT 0,
  last_entry_at  timestamptz,
  created_at     timestamptz NOT NULL,
  -- Last line of defence; ledger_post raises a clearer error before this fires.
  CONSTRAINT ledger_accounts_available_not_negative
    CHECK (allow_negative OR balance_kobo - held_kobo >= 0)
);

CREATE TABLE ledger_journals (
  id          text PRIMARY KEY,
  kind        text NOT NULL,
  narration   text NOT NULL,
  reference   text,
  transfer_id text,
  created_at  timestamptz NOT NULL
);

CREATE TABLE ledger_entries (
  account_id         text NOT NULL REFERENCES ledger_accounts (id),
  seq                bigint NOT NULL,
  -- The entry's number among the account's credits (or debits): lets a statement filtered by
  -- type page by range instead of by offset.
  direction_seq      bigint NOT NULL,
  is_credit          boolean NOT NULL,
  journal_id         text NOT NULL REFERENCES ledger_journals (id),
  amount_kobo        bigint NOT NULL CHECK (amount_kobo <> 0),
  balance_after_kobo bigint NOT NULL,
  narration          text NOT NULL,
  created_at         timestamptz NOT NULL,
  PRIMARY KEY (account_id, seq),
  CHECK (is_credit = (amount_kobo > 0))
);
CREATE UNIQUE INDEX ledger_entries_direction_idx
  ON ledger_entries (account_id, is_credit, direction_seq);
CREATE INDEX ledger_entries_time_idx ON ledger_entries (account_id, created_at, seq);
CREATE INDEX ledger_entries_direction_time_idx
  ON ledger_entries (account_id, is_credit, created_at, direction_seq);
CREATE INDEX ledger_entries_journal_idx ON ledger_entries (journal_id);

CREATE TABLE ledger_holds (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES ledger_accounts (id),
  amount_kobo bigint NOT NULL CHECK (amount_kobo > 0),
  status      text NOT NULL CHECK (status IN ('pending', 'posted', 'voided')),
  reference   text,
  created_at  timestamptz NOT NULL,
  resolved_at timestamptz
);
CREATE INDEX ledger_holds_pending_idx ON ledger_holds (account_id) WHERE status = 'pending';

-- Internal (GL) accounts. The NIP settlement and sandbox float accounts mirror money held at
-- other banks, so they may go negative; income and payable accounts may not.
INSERT INTO ledger_accounts (id, kind, name, allow_negative, created_at) VALUES
  ('gl.nip_settlement', 'internal', 'NIP settlement', true, now()),
  ('gl.fee_income', 'internal', 'Fee income', false, now()),
  ('gl.vat_payable', 'internal', 'VAT payable', false, now()),
  ('gl.stamp_duty_payable', 'internal', 'Stamp duty payable', false, now()),
  ('gl.sandbox_external_float', 'internal', 'Sandbox external bank float', true, now());
