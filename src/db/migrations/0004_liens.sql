-- Liens (src/ledger; docs/ledger.md, "Liens"; docs/adr/0006-liens-in-the-ledger-core.md).
--
-- A lien is what a customer owes the bank when money had to be taken back from an account that
-- no longer held it: a recalled inbound credit, an intra-bank transfer reversed by an operator.
-- What the account held went back at once; the shortfall is a lien, recovered from the
-- account's next credits (ledger_fill_liens) or written off by an operator.
--
-- lien_kobo is the sum of the account's active liens' outstanding amounts, kept beside the
-- balance so a credit knows from the row it updates whether there is a lien to fill.
ALTER TABLE ledger_accounts
  ADD COLUMN lien_kobo bigint NOT NULL DEFAULT 0 CHECK (lien_kobo >= 0);

CREATE TABLE ledger_liens (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES ledger_accounts (id),
  amount_kobo      bigint NOT NULL CHECK (amount_kobo > 0),
  outstanding_kobo bigint NOT NULL CHECK (outstanding_kobo >= 0),
  written_off_kobo bigint NOT NULL DEFAULT 0 CHECK (written_off_kobo >= 0),
  reason           text NOT NULL,
  -- What placed it: the recall's session id, the reversal's id.
  reference        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('active', 'filled', 'released')),
  -- Who is told when it is filled: {handler, event}, the placing module's SQL function.
  on_filled        jsonb,
  released_by      text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  resolved_at      timestamptz,
  CHECK (outstanding_kobo + written_off_kobo <= amount_kobo),
  CHECK ((status = 'active') = (outstanding_kobo > 0))
);
-- An account's liens, oldest first: the order credits fill them in, and the order they are read.
CREATE INDEX ledger_liens_account_idx ON ledger_liens (account_id, created_at, id);

-- The ledger's balances as other modules read them, with the liens the account owes.
CREATE OR REPLACE VIEW ledger_account_balances AS
  SELECT id AS account_id, balance_kobo, held_kobo, lien_kobo FROM ledger_accounts;

-- What customers owe the bank under liens (runs negative: a receivable), and what operators
-- wrote off (an expense: runs negative).
INSERT INTO ledger_accounts (id, kind, name, allow_negative, created_at) VALUES
  ('gl.lien_receivable', 'internal', 'Lien receivable', true, now()),
  ('gl.lien_write_off', 'internal', 'Liens written off', true, now());
