-- Customer debit and credit alerts (docs/alerts.md; docs/adr/0007-alerts-from-ledger-notices.md).
--
-- The ledger tells, the alerts module writes. `notify` on a ledger account is what its holder
-- asked to be told of (bit 1: email, bit 2: SMS), set by the accounts module through the ledger
-- whenever the account's notificationSettings change or it is opened. A posting, a hold or a
-- voided hold on an account whose notify is not 0 writes one notice row in its own transaction
-- (the row the posting just updated says so: no extra read); the alerts worker turns notices
-- into messages and deletes them.
ALTER TABLE ledger_accounts ADD COLUMN notify smallint NOT NULL DEFAULT 0
  CHECK (notify BETWEEN 0 AND 3);

-- Accounts opened before this migration: their settings as they stand.
UPDATE ledger_accounts l SET notify =
    CASE WHEN (a.notification_settings->>'emailNotification')::boolean THEN 1 ELSE 0 END
  + CASE WHEN (a.notification_settings->>'smsNotification')::boolean THEN 2 ELSE 0 END
  FROM accounts a WHERE a.id = l.id;

-- One notice per account per journal (its entries first_seq..last_seq), per hold placed, per
-- hold voided. `notify` is the account's setting when it happened; `amount_kobo` and
-- `balance_after_kobo` are a hold's amount and the available balance after it (a journal's are
-- read from its entries).
CREATE TABLE ledger_notices (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id         text NOT NULL,
  kind               text NOT NULL CHECK (kind IN ('entry', 'hold', 'hold_voided')),
  source_id          text NOT NULL,
  first_seq          bigint,
  last_seq           bigint,
  amount_kobo        bigint,
  balance_after_kobo bigint,
  notify             smallint NOT NULL,
  created_at         timestamptz NOT NULL
);

-- The alerts module's messages: one per alert per channel. `id` is stable (derived from the
-- notice's account, kind, source and channel): the SMTP Message-ID and the SMS provider's
-- de-duplication key, the same on every retry.
CREATE TABLE alert_messages (
  id              text PRIMARY KEY,
  account_id      text NOT NULL,
  account_number  text NOT NULL,
  client_id       text NOT NULL,
  channel         text NOT NULL CHECK (channel IN ('email', 'sms')),
  destination     text NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'suppressed')),
  subject         text,
  text_body       text NOT NULL,
  html_body       text,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL,
  sent_at         timestamptz
);
CREATE INDEX alert_messages_due_idx ON alert_messages (next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_messages_account_idx ON alert_messages (account_number, created_at DESC, id);
-- The per-account rate bound counts an account's recent sends.
CREATE INDEX alert_messages_sent_idx ON alert_messages (account_id, sent_at) WHERE status = 'sent';

-- Destinations a provider refused for good (an SMTP 5xx for the mailbox, an invalid number):
-- never tried again until an operator lets them go.
CREATE TABLE alert_suppressed_destinations (
  channel      text NOT NULL CHECK (channel IN ('email', 'sms')),
  destination  text NOT NULL,
  reason       text NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (channel, destination)
);
