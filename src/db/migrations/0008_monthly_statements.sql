-- Monthly statements (docs/statements.md, "Monthly statements"; docs/adr/0008-monthly-statements.md).
--
-- On the first day of each month (Africa/Lagos) every account whose notificationSettings ask
-- for it gets the previous month's statement: an email with the PDF attached, an SMS with the
-- closing balance, sent through the alerts' outbox (alert_messages).
--
-- One row per month the bank sends statements for: made by the first worker that sees the month
-- end (the primary key decides between workers), walked a batch of accounts at a time (the last
-- account id done is the cursor) by whichever worker holds the row's lock, and completed when
-- no account is left. `generated_at` is when the month's run began: every statement of the month
-- says it was generated then, on every attempt to send it, so its PDF is the same bytes each time.
CREATE TABLE alert_statement_months (
  month            date PRIMARY KEY CHECK (extract(day FROM month) = 1),
  generated_at     timestamptz NOT NULL,
  after_account_id text NOT NULL DEFAULT '',
  accounts         integer NOT NULL DEFAULT 0,
  completed_at     timestamptz
);
CREATE INDEX alert_statement_months_open_idx ON alert_statement_months (month)
  WHERE completed_at IS NULL;

-- One row per account per month that was sent its statement: written in the transaction that
-- queues the account's messages, so the key decides "exactly once" even if two workers (or a
-- worker restarted after a crash) reach the same account.
CREATE TABLE alert_statements (
  account_id  text NOT NULL,
  month       date NOT NULL,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, month)
);

-- A monthly statement's message: the month it is the statement of. Its email carries the PDF,
-- made when it is sent, from the ledger and the message's created_at as the time it was
-- generated; its SMS the month's closing balance.
ALTER TABLE alert_messages ADD COLUMN statement_month date;
