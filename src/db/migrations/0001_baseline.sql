-- The schema of OpenIBS: tables, views, sequences, indexes, constraints and the rows the bank
-- starts with (its GL accounts, the VAS catalogue, the account number key). It is migrations
-- 0001 to 0031 squashed into one file, before the first release; a database those migrations
-- made is recognised and recorded as at this baseline (src/db/legacy-layout.ts). The functions
-- and triggers are not here: each lives in its own file in the folder that owns it
-- (`<folder>/sql/<function>.sql`), applied by the migrator after the migrations.
-- Sections follow the folders that own the tables (scripts/table-owners.ts), in the order their
-- foreign keys need.

-- Clients (modules/clients): the businesses that own accounts. Client ids double as the
-- `ibs_client_id` of the published API. main_account_id is added with the accounts below.
CREATE TABLE clients (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  email_address text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

-- Auth (auth): the clients' OAuth apps, the apps' public keys and the refresh tokens issued to
-- them.
CREATE TABLE oauth_apps (
  id              text PRIMARY KEY,
  client_id       text NOT NULL REFERENCES clients (id),
  oauth_client_id text NOT NULL UNIQUE,
  name            text NOT NULL,
  created_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  -- Operator control: access tokens are stateless JWTs, so revocation is a time: a token issued
  -- at or before it is refused (auth's revocation list reads these every few seconds).
  tokens_revoked_at timestamptz
);
CREATE INDEX oauth_apps_client_idx ON oauth_apps (client_id);
CREATE INDEX oauth_apps_tokens_revoked ON oauth_apps (tokens_revoked_at)
  WHERE tokens_revoked_at IS NOT NULL;

CREATE TABLE oauth_app_keys (
  id             text PRIMARY KEY,
  app_id         text NOT NULL REFERENCES oauth_apps (id),
  public_key_pem text NOT NULL,
  algorithm      text NOT NULL CHECK (algorithm IN ('RS256', 'ES256')),
  created_at     timestamptz NOT NULL,
  revoked_at     timestamptz
);
CREATE INDEX oauth_app_keys_app_idx ON oauth_app_keys (app_id);

-- Refresh tokens rotate: each use marks the row used and issues a new one in the same family.
-- Presenting a used token again revokes the whole family (reuse detection).
CREATE TABLE refresh_tokens (
  id         text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  family_id  text NOT NULL,
  app_id     text NOT NULL REFERENCES oauth_apps (id),
  issued_at  timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
-- Retention: expired rows are found by these, in bounded batches, without reading whole tables.
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);

-- Only used when ASSERTION_REJECT_REUSED_JTI is on: one row per accepted assertion `jti`.
CREATE TABLE used_assertion_ids (
  app_id     text NOT NULL REFERENCES oauth_apps (id),
  jti        text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, jti)
);
CREATE INDEX used_assertion_ids_expiry ON used_assertion_ids (expires_at);

-- Operator control: a client's tokens can be revoked at once; a disabled client gets no new
-- token at all.
CREATE TABLE client_access (
  client_id         text PRIMARY KEY REFERENCES clients (id),
  disabled_at       timestamptz,
  tokens_revoked_at timestamptz,
  updated_at        timestamptz NOT NULL
);

-- Dashboard sessions, kept on the server so signing out (or the operator API's end-all) ends a
-- session on every server process at once, whatever copies of its cookie exist. The cookie
-- carries a random secret; only its SHA-256 is stored, so reading this table signs no one in.
CREATE TABLE dashboard_sessions (
  token_hash text PRIMARY KEY,
  operator   text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at   timestamptz
);
-- The retention worker deletes sessions some time after they expire.
CREATE INDEX dashboard_sessions_expires_at ON dashboard_sessions (expires_at);

-- The double-entry ledger (ledger). Every journal is a set of entries summing to zero; an
-- account's balance is the sum of its entries (credit positive, from the account holder's view);
-- each account numbers its entries 1, 2, 3... without gaps. Holds reserve funds for two-phase
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

-- The ledger's balances, as other modules may read them (ledger_accounts stays the ledger's).
CREATE VIEW ledger_account_balances AS
  SELECT id AS account_id, balance_kobo, held_kobo FROM ledger_accounts;

-- Internal (GL) accounts (src/ledger/gl-accounts.ts). The NIP settlement and sandbox float
-- accounts mirror money held at other banks, so they may go negative; income and payable
-- accounts may not. For VAS: what customers paid for purchases, owed to the biller; and the
-- commission the biller owes the bank for them, passed on to the client (a receivable: it runs
-- negative until the biller settles).
INSERT INTO ledger_accounts (id, kind, name, allow_negative, created_at) VALUES
  ('gl.nip_settlement', 'internal', 'NIP settlement', true, now()),
  ('gl.fee_income', 'internal', 'Fee income', false, now()),
  ('gl.vat_payable', 'internal', 'VAT payable', false, now()),
  ('gl.stamp_duty_payable', 'internal', 'Stamp duty payable', false, now()),
  ('gl.sandbox_external_float', 'internal', 'Sandbox external bank float', true, now()),
  ('gl.vas_biller_settlement', 'internal', 'VAS biller settlement', false, now()),
  ('gl.vas_commission_receivable', 'internal', 'VAS commission receivable', true, now());

-- Customer accounts (modules/accounts) as the published API shows them. Each is backed by a
-- ledger account with the same id, which holds its balance. The numbers come from one serial,
-- which virtual accounts share, so a virtual account and an account never share a number.
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
  -- The client's own accounts belong to an onboarded business: full KYC.
  kyc_level             text NOT NULL DEFAULT '3',
  external_reference    text,
  callback_url          text,
  metadata              jsonb NOT NULL DEFAULT '{}',
  notification_settings jsonb NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  -- Sub-accounts: accounts a client opens for its verified customers (individuals or
  -- companies). identity_verification_id refers to identity_verifications, made below.
  holder_type           text CHECK (holder_type IN ('Individual', 'Corporate')),
  phone_number          text,
  email_address         text,
  identity_type         text,
  identity_verification_id text,
  director_verification_ids text[] NOT NULL DEFAULT '{}',
  -- Fingerprint of the creating request: the same externalReference replays only the same body.
  request_hash          text,
  auto_sweep            boolean NOT NULL DEFAULT false,
  auto_sweep_details    jsonb,
  -- What the account's outbound transfers and VAS purchases count under for the daily limits
  -- that follow a KYC level (docs/api.md, "Transfer limits"): a sub-account's is
  -- "person:<client id>:<identity type>:<SHA-256 of the identity number>", shared by every
  -- account the client opened on that identity (the number itself is never in it); NULL for any
  -- other account, which counts under its own id. Made when a sub-account opens (identityKey in
  -- src/modules/identity, identityLimitKey in src/modules/accounts); it never changes.
  daily_limit_key       text
);
CREATE INDEX accounts_client_list_idx
  ON accounts (client_id, is_sub_account, created_at DESC, id DESC);
CREATE UNIQUE INDEX accounts_client_external_reference_idx
  ON accounts (client_id, external_reference) WHERE external_reference IS NOT NULL;

ALTER TABLE clients ADD COLUMN main_account_id text REFERENCES accounts (id);

-- The key of the permutation that turns the account serial into the 9 digits of a NUBAN, so new
-- account numbers are not guessable in sequence. Made once, at random, with the data it
-- numbers: it never changes (another key would reuse numbers).
CREATE TABLE account_number_keys (
  id   integer PRIMARY KEY CHECK (id = 1),
  key  bytea NOT NULL
);
-- Two version-4 UUIDs: 244 random bits from the server's strong random source.
INSERT INTO account_number_keys (id, key)
VALUES (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));

-- Identity and credit checks a client ran (modules/identity, POST /identity/v2), and their OTP
-- challenges.
CREATE TABLE identity_verifications (
  id                  text PRIMARY KEY,
  client_id           text NOT NULL REFERENCES clients (id),
  type                text NOT NULL
                      CHECK (type IN ('BVN', 'NIN', 'vNIN', 'BVNUSSD', 'CAC', 'CREDITCHECK')),
  number              text NOT NULL,
  provider            text,
  verifier_id         text,
  debit_account_id    text NOT NULL REFERENCES accounts (id),
  fee_kobo            bigint NOT NULL CHECK (fee_kobo >= 0),
  vat_kobo            bigint NOT NULL CHECK (vat_kobo >= 0),
  journal_id          text,
  -- Pending: an OTP went to the identity's phone; Verified: validated (or needed no OTP);
  -- Failed: too many wrong OTPs.
  status              text NOT NULL CHECK (status IN ('Pending', 'Verified', 'Failed')),
  record              jsonb NOT NULL,
  otp_digest          text,
  otp_expires_at      timestamptz,
  otp_attempts        integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  verified_at         timestamptz,
  -- The number of the account it charged, so identity never reads accounts.
  debit_account_number text NOT NULL
);
CREATE INDEX identity_verifications_client_idx
  ON identity_verifications (client_id, created_at DESC, id DESC);

ALTER TABLE accounts
  ADD FOREIGN KEY (identity_verification_id) REFERENCES identity_verifications (id);

-- Transfers (modules/transfers) in the published shape: inbound credits, outbound NIP and
-- intra-bank transfers. An intra-bank transfer is one session seen from both sides: the
-- sender's Outwards row and the recipient's Inwards row share the session id.
CREATE TABLE transfers (
  id                           text PRIMARY KEY,
  client_id                    text NOT NULL REFERENCES clients (id),
  account_id                   text NOT NULL REFERENCES accounts (id),
  type                         text NOT NULL CHECK (type IN ('Inwards', 'Outwards')),
  session_id                   text NOT NULL,
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
  declined_at                  timestamptz,
  -- NIP's two-phase flow: the request's fingerprint, the hold, the status-query schedule.
  request_hash                 text,
  hold_id                      text,
  status_queries               integer NOT NULL DEFAULT 0,
  next_status_query_at         timestamptz,
  -- A NIP transfer saves its beneficiary only once it succeeds, so the request's choice is kept.
  save_beneficiary             boolean NOT NULL DEFAULT false,
  -- The key an Outwards transfer counted under (its account's daily_limit_key), so that its
  -- failure gives the amount back to the same total; NULL means the account's id.
  daily_limit_key              text
);
CREATE INDEX transfers_account_created_idx ON transfers (account_id, created_at DESC, id DESC);
CREATE INDEX transfers_client_created_idx ON transfers (client_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX transfers_session_type_idx ON transfers (session_id, type);
-- paymentReference is the client's idempotency key for outbound transfers.
CREATE UNIQUE INDEX transfers_client_payment_reference_idx
  ON transfers (client_id, payment_reference) WHERE type = 'Outwards';
CREATE INDEX transfers_status_query_idx
  ON transfers (next_status_query_at) WHERE status = 'Processing';

-- The name enquiries a transfer must quote.
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
CREATE INDEX name_enquiries_expiry ON name_enquiries (expires_at);

-- The outbound volume per daily limit key (an account's daily_limit_key, or its id) and day (the
-- Lagos day: transfer_limit_day), kept as a counter in the same transaction as the transfer or
-- VAS purchase, so the daily limit costs one row whatever the day's count (not a sum over it).
-- Failed transfers and purchases do not count: their amount comes off again when they fail.
CREATE TABLE daily_outbound_totals (
  limit_key   text NOT NULL,
  day         date NOT NULL,
  total_kobo  bigint NOT NULL CHECK (total_kobo >= 0),
  PRIMARY KEY (limit_key, day)
);

-- Beneficiaries (modules/beneficiaries).
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

-- Idempotency (idempotency): one scheme for every POST that honours Idempotency-Key: per client
-- and scope (the kind of request), the key, the fingerprint of the request that first used it,
-- and the id of the resource it made. Claimed in the same transaction as the effect.
CREATE TABLE idempotency_requests (
  client_id    text NOT NULL REFERENCES clients (id),
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  resource_id  text NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, scope, key)
);
CREATE INDEX idempotency_requests_age ON idempotency_requests (created_at);

-- Webhooks (webhooks): each client's destination and signing secrets, the transactional outbox
-- of events, and every delivery attempt. An event row is written in the same transaction as the
-- change it reports; a worker claims due rows with FOR UPDATE SKIP LOCKED and delivers them.
CREATE TABLE webhook_endpoints (
  client_id                  text PRIMARY KEY REFERENCES clients (id),
  url                        text,
  secret                     text NOT NULL,
  previous_secret            text,
  previous_secret_expires_at timestamptz,
  disabled_at                timestamptz,
  disabled_reason            text,
  updated_at                 timestamptz NOT NULL
);

CREATE TABLE webhook_events (
  -- The `webhook-id` header: stable across retries and replays.
  id              text PRIMARY KEY,
  client_id       text NOT NULL REFERENCES clients (id),
  type            text NOT NULL,
  -- json, not jsonb: keeps the field order of the view that rendered it.
  payload         json NOT NULL,
  -- A resource's own callbackUrl; NULL means the client's webhook URL at delivery time.
  callback_url    text,
  status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  -- Attempts made before the last replay: a replayed event gets the whole retry schedule again.
  replay_base     integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  -- A claimed row is invisible to other workers until this passes; it is longer than the
  -- delivery timeout, so no two workers ever run an attempt of one event at once.
  locked_until    timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  delivered_at    timestamptz
);
CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_events_client_idx ON webhook_events (client_id, created_at DESC, id DESC);
CREATE INDEX webhook_events_delivered_age ON webhook_events (updated_at) WHERE status = 'delivered';
-- /metrics reads the outbox on every scrape (webhooks/event-repository.ts, outboxStats), so each
-- part must come from a small index, never a scan of the table (every event ever sent, within
-- retention). The pending events' index on next_attempt_at gives their count and the
-- longest-overdue one. These two add the rest:
--   the oldest event still waiting, by when it was written: the first entry of this index,
--     instead of a visit to every pending row (millions, while a receiver is down for days);
--   the events that failed for good and wait for a replay: counted from their own index.
-- Both hold only the rows in that state, so they stay as small as the backlog they measure.
CREATE INDEX webhook_events_pending_age ON webhook_events (created_at) WHERE status = 'pending';
CREATE INDEX webhook_events_failed_age ON webhook_events (created_at) WHERE status = 'failed';

CREATE TABLE webhook_attempts (
  event_id         text NOT NULL REFERENCES webhook_events (id),
  attempt          integer NOT NULL,
  attempted_at     timestamptz NOT NULL,
  url              text,
  status_code      integer,
  latency_ms       integer NOT NULL,
  error            text,
  response_excerpt text,
  PRIMARY KEY (event_id, attempt)
);

-- The sandbox's inbox (GET /admin/sandbox/webhooks). Every delivery attempt, with the exact body
-- and headers sent (or that would have been sent, when the client has no webhook URL) and the
-- receiver's answer, so a test can assert on webhooks without a receiver of its own. Written
-- only in the sandbox; the delivery worker keeps the newest 1,000 rows per client. No foreign
-- keys: the retention worker deletes delivered events and the sandbox's reset deletes clients,
-- and neither waits on this record of what was sent.
CREATE TABLE webhook_inbox (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id         text NOT NULL,
  attempt          integer NOT NULL,
  client_id        text NOT NULL,
  type             text NOT NULL,
  url              text,
  -- json, not jsonb: the headers in the order they were sent.
  request_headers  json NOT NULL,
  request_body     text NOT NULL,
  response_status  integer,
  response_body    text,
  error            text,
  attempted_at     timestamptz NOT NULL
);
CREATE INDEX webhook_inbox_client_idx ON webhook_inbox (client_id, id);

-- The sandbox NIP simulator's own record of the transfers it received (rails/nip): the simulated
-- network's books, not OpenIBS's. Kept in the database so a status query after a restart still
-- answers what the network did, as NIBSS would. Production rails never touch it.
CREATE TABLE nip_simulator_sessions (
  session_id              text PRIMARY KEY,
  amount_kobo             bigint NOT NULL,
  send_code               text,
  status_query_codes      text[] NOT NULL CHECK (cardinality(status_query_codes) > 0),
  status_queries_answered integer NOT NULL DEFAULT 0,
  received_at             timestamptz NOT NULL
);

-- Virtual accounts (modules/virtual-accounts): time-bound NUBANs that collect one expected
-- payment and settle it to one of the client's accounts. The number comes from the same serial
-- as every account, so a virtual account and an account never share a number.
CREATE TABLE virtual_accounts (
  id                     text PRIMARY KEY,
  client_id              text NOT NULL REFERENCES clients (id),
  account_number         text NOT NULL UNIQUE,
  account_name           text NOT NULL,
  settlement_account_id  text NOT NULL REFERENCES accounts (id),
  -- Account numbers never change: kept here so a read needs no other module's table.
  settlement_account_number text NOT NULL,
  amount_control         text NOT NULL CHECK (amount_control IN ('Fixed', 'UnderPayment', 'OverPayment')),
  amount_kobo            bigint NOT NULL CHECK (amount_kobo > 0),
  valid_for_seconds      integer NOT NULL CHECK (valid_for_seconds > 0),
  expires_at             timestamptz NOT NULL,
  callback_url           text,
  external_reference     text,
  -- Fingerprint of the creating request: the same externalReference replays only the same body.
  request_hash           text NOT NULL,
  -- Active until it is paid (Paid) or deleted (Deleted); Expired is Active past expires_at,
  -- decided whenever it is read or paid, so no sweep has to run for it to hold.
  status                 text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Paid', 'Deleted')),
  paid_kobo              bigint NOT NULL DEFAULT 0,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE UNIQUE INDEX virtual_accounts_external_reference
  ON virtual_accounts (client_id, external_reference) WHERE external_reference IS NOT NULL;
CREATE INDEX virtual_accounts_by_client ON virtual_accounts (client_id, created_at DESC, id DESC);

-- The payments a virtual account accepted: each is an Inwards transfer on the settlement account.
CREATE TABLE virtual_account_payments (
  transfer_id         text PRIMARY KEY,
  virtual_account_id  text NOT NULL REFERENCES virtual_accounts (id),
  client_id           text NOT NULL REFERENCES clients (id),
  session_id          text NOT NULL,
  created_at          timestamptz NOT NULL
);
CREATE INDEX virtual_account_payments_by_account
  ON virtual_account_payments (virtual_account_id, created_at);
CREATE UNIQUE INDEX virtual_account_payments_by_session
  ON virtual_account_payments (client_id, session_id);

-- VAS (modules/vas): the catalogue (services, their categories, the categories' products) and
-- purchases paid from a client's account through a biller. The catalogue is data: seeded
-- below, changed by operators through the admin API.
CREATE TABLE vas_services (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  identifier   text NOT NULL UNIQUE CHECK (identifier IN ('AIRTIME', 'DATA', 'CABLETV', 'UTILITY')),
  description  text NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE vas_categories (
  id                   text PRIMARY KEY,
  service_id           text NOT NULL REFERENCES vas_services (id),
  name                 text NOT NULL,
  identifier           text NOT NULL,
  vendor               text NOT NULL,
  is_fixed_amount      boolean NOT NULL,
  description          text NOT NULL,
  logo_url             text NOT NULL DEFAULT '',
  -- The published shape: { flatAmount, percentageAmount, minCap, maxCap } (naira and percent),
  -- or null: what the biller pays on a sale, passed on to the client.
  provider_commission  jsonb,
  -- Variable-amount categories (airtime, utility): the amounts a purchase may carry.
  min_amount_kobo      bigint NOT NULL DEFAULT 100 CHECK (min_amount_kobo > 0),
  max_amount_kobo      bigint NOT NULL DEFAULT 5000000 CHECK (max_amount_kobo >= min_amount_kobo),
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX vas_categories_by_service ON vas_categories (service_id, name);

CREATE TABLE vas_products (
  category_id      text NOT NULL REFERENCES vas_categories (id),
  bundle_code      text NOT NULL,
  name             text NOT NULL,
  -- Null for a product whose amount the buyer chooses (a cable "Top Up").
  amount_kobo      bigint CHECK (amount_kobo > 0),
  duration         text NOT NULL,
  is_amount_fixed  boolean NOT NULL,
  -- The order the catalogue lists them in.
  position         integer NOT NULL,
  PRIMARY KEY (category_id, bundle_code)
);

CREATE TABLE vas_purchases (
  id                 text PRIMARY KEY,
  client_id          text NOT NULL REFERENCES clients (id),
  account_id         text NOT NULL REFERENCES accounts (id),
  debit_account_number text NOT NULL,
  service            text NOT NULL CHECK (service IN ('AIRTIME', 'DATA', 'CABLETV', 'UTILITY')),
  category_id        text NOT NULL REFERENCES vas_categories (id),
  category_identifier text NOT NULL,
  -- 32 lower-case hex characters: ours, sent to the biller, unique.
  reference          text NOT NULL UNIQUE,
  status             text NOT NULL CHECK (status IN ('pending', 'successful', 'failed')),
  amount_kobo        bigint NOT NULL CHECK (amount_kobo > 0),
  commission_kobo    bigint NOT NULL DEFAULT 0 CHECK (commission_kobo >= 0),
  channel            text NOT NULL,
  beneficiary        text NOT NULL,
  bundle_code        text,
  vend_type          text,
  receiver_name      text,
  utility_token      text,
  failure_message    text,
  status_url         text,
  hold_id            text NOT NULL,
  request_hash       text NOT NULL,
  status_queries     integer NOT NULL DEFAULT 0,
  next_status_query_at timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  completed_at       timestamptz,
  -- The daily limit key the purchase counted under (its account's daily_limit_key or id), so
  -- that its failure gives back to the same total. NULL: placed before purchases counted, when
  -- it added nothing (it gives nothing back).
  daily_limit_key    text
);
CREATE INDEX vas_purchases_by_client ON vas_purchases (client_id, created_at DESC, id DESC);
CREATE INDEX vas_purchases_due ON vas_purchases (next_status_query_at) WHERE status = 'pending';


-- The VAS catalogue the bank starts with: the four services, their categories (networks, cable
-- operators, electricity distribution companies) and the data and cable products. Operators
-- change prices, commissions and products through the admin API. Ids and created_at follow the
-- published catalogue; amounts are kobo, commissions naira/percent.
INSERT INTO vas_services (id, name, identifier, description, created_at, updated_at) VALUES
  ('61e985180e69308aa37a7a94', 'Mobile Recharge', 'AIRTIME', 'Airtime Recharge',         '2022-01-20T15:51:52.311Z', '2022-01-20T15:51:52.311Z'),
  ('61e9854bbce8e444a497663e', 'DATA PURCHASE',   'DATA',    'Data bundle subscription', '2022-01-20T15:52:43.000Z', '2022-01-20T15:52:43.000Z'),
  ('61e9857bbce8e444a4976641', 'CABLE TV',        'CABLETV', 'Cable tv subscription',    '2022-01-20T15:53:31.000Z', '2022-01-20T15:53:31.000Z'),
  ('61e985a3bce8e444a4976643', 'UTILITY BILLS',   'UTILITY', 'Power and Disco bills',    '2022-01-20T15:54:11.000Z', '2022-01-20T15:54:11.000Z');

-- Airtime: the buyer chooses the amount, from N50 to N50,000.
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e988830e69308aa37a7a99', '61e985180e69308aa37a7a94', 'MTN',      'MTN',      '68075467e1c44b9bf8d23749', false, 'Mtn Airtime',      '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:06:27.000Z', '2022-01-20T16:06:27.000Z'),
  ('61e9896abce8e444a4976648', '61e985180e69308aa37a7a94', 'AIRTEL',   'AIRTEL',   '68075467e1c44b9bf8d23749', false, 'Airtel Airtime',   '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:10:18.000Z', '2022-01-20T16:10:18.000Z'),
  ('61e9898cbce8e444a497664b', '61e985180e69308aa37a7a94', 'ETISALAT', 'ETISALAT', '68075467e1c44b9bf8d23749', false, 'Etisalat Airtime', '', '{"flatAmount":0,"percentageAmount":4.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:10:52.000Z', '2022-01-20T16:10:52.000Z'),
  ('61e9892e0e69308aa37a7a9c', '61e985180e69308aa37a7a94', 'GLO',      'GLO',      '68075467e1c44b9bf8d23749', false, 'Glo Airtime',      '', '{"flatAmount":0,"percentageAmount":3.5,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:09:18.000Z', '2022-01-20T16:09:18.000Z');

-- Data: the bundle fixes the amount.
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e989f20e69308aa37a7a9f', '61e9854bbce8e444a497663e', 'MTN',                'MTN',      '68075467e1c44b9bf8d23749', true, 'Mtn Data',           '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:12:34.000Z', '2022-01-20T16:12:34.000Z'),
  ('61e98a4dbce8e444a4976651', '61e9854bbce8e444a497663e', 'AIRTEL',             'AIRTEL',   '68075467e1c44b9bf8d23749', true, 'Airtel Data',        '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:14:05.000Z', '2022-01-20T16:14:05.000Z'),
  ('61e98a67bce8e444a4976654', '61e9854bbce8e444a497663e', 'ETISALAT',           'ETISALAT', '68075467e1c44b9bf8d23749', true, 'Etisalat Data',      '', '{"flatAmount":0,"percentageAmount":4.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:14:31.000Z', '2022-01-20T16:14:31.000Z'),
  ('61e98a31bce8e444a497664e', '61e9854bbce8e444a497663e', 'GLO',                'GLO',      '68075467e1c44b9bf8d23749', true, 'Glo Data',           '', '{"flatAmount":0,"percentageAmount":3.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:13:37.000Z', '2022-01-20T16:13:37.000Z'),
  ('6502e9a236208a4de6d1b2ac', '61e9854bbce8e444a497663e', 'MTN-COOPERATE-DATA', 'MTN-DATA', '68075467e1c44b9bf8d23749', true, 'Mtn Corporate Data', '', '{"flatAmount":0,"percentageAmount":2.5,"minCap":null,"maxCap":null}', 100, 10000000, '2023-09-14T11:08:18.000Z', '2023-09-14T11:08:18.000Z');

-- Cable TV: the bouquet fixes the amount (except the one-off Top Up).
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e98b3562d9b6a917f9302a', '61e9857bbce8e444a4976641', 'DSTV BILL', 'DSTV',      '68075467e1c44b9bf8d23749', true, 'DStv Subscription',      '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:17:57.000Z', '2022-01-20T16:17:57.000Z'),
  ('61e98b6462d9b6a917f9302d', '61e9857bbce8e444a4976641', 'GOTV',      'GOTV',      '68075467e1c44b9bf8d23749', true, 'GOtv Subscription',      '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:18:44.000Z', '2022-01-20T16:18:44.000Z'),
  ('61e98b8a90dbbfc905f48f07', '61e9857bbce8e444a4976641', 'STARTIMES', 'STARTIMES', '68075467e1c44b9bf8d23749', true, 'StarTimes Subscription', '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:19:22.000Z', '2022-01-20T16:19:22.000Z');

-- Utility: one category per electricity distribution company; the buyer chooses the amount, from
-- N500 to N1,000,000. Some commissions are capped (maxCap, naira per sale).
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e98bf962d9b6a917f93030', '61e985a3bce8e444a4976643', 'BEDC',  'BENIN',        '68075467e1c44b9bf8d23749', false, 'Benin Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:21:13.000Z', '2022-01-20T16:21:13.000Z'),
  ('61e98c2090dbbfc905f48f0a', '61e985a3bce8e444a4976643', 'EKEDC', 'EKO',          '68075467e1c44b9bf8d23749', false, 'Eko Electric Prepaid/Postpaid',           '', '{"flatAmount":0,"percentageAmount":0.8,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:21:52.000Z', '2022-01-20T16:21:52.000Z'),
  ('61e98c4390dbbfc905f48f0d', '61e985a3bce8e444a4976643', 'AEDC',  'ABUJA',        '68075467e1c44b9bf8d23749', false, 'Abuja Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:22:27.000Z', '2022-01-20T16:22:27.000Z'),
  ('61e98c5f90dbbfc905f48f10', '61e985a3bce8e444a4976643', 'EEDC',  'ENUGU',        '68075467e1c44b9bf8d23749', false, 'Enugu Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:22:55.000Z', '2022-01-20T16:22:55.000Z'),
  ('61e98c7790dbbfc905f48f13', '61e985a3bce8e444a4976643', 'IBEDC', 'IBADAN',       '68075467e1c44b9bf8d23749', false, 'Ibadan Electric Prepaid/Postpaid',        '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:23:19.000Z', '2022-01-20T16:23:19.000Z'),
  ('61e98ca5ab69182f326e6db6', '61e985a3bce8e444a4976643', 'IKEDC', 'IKEJA',        '68075467e1c44b9bf8d23749', false, 'Ikeja Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":0.8,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:24:05.000Z', '2022-01-20T16:24:05.000Z'),
  ('61e98cc6ab69182f326e6db9', '61e985a3bce8e444a4976643', 'JEDC',  'JOS',          '68075467e1c44b9bf8d23749', false, 'Jos Electric Prepaid/Postpaid',           '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:24:38.000Z', '2022-01-20T16:24:38.000Z'),
  ('61e98ceeab69182f326e6dbc', '61e985a3bce8e444a4976643', 'KAEDC', 'KADUNA',       '68075467e1c44b9bf8d23749', false, 'Kaduna Electric Prepaid/Postpaid',        '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:25:18.000Z', '2022-01-20T16:25:18.000Z'),
  ('61e98d0bab69182f326e6dbf', '61e985a3bce8e444a4976643', 'KEDCO', 'KANO',         '68075467e1c44b9bf8d23749', false, 'Kano Electric Prepaid/Postpaid',          '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:25:47.000Z', '2022-01-20T16:25:47.000Z'),
  ('61e98d28ab69182f326e6dc2', '61e985a3bce8e444a4976643', 'PHEDC', 'PORTHARCOURT', '68075467e1c44b9bf8d23749', false, 'Port Harcourt Electric Prepaid/Postpaid', '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":150}', 50000, 100000000, '2022-01-20T16:26:16.000Z', '2022-01-20T16:26:16.000Z'),
  ('61e98d43ab69182f326e6dc5', '61e985a3bce8e444a4976643', 'YEDC',  'YOLA',         '68075467e1c44b9bf8d23749', false, 'Yola Electric Prepaid/Postpaid',          '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:26:43.000Z', '2022-01-20T16:26:43.000Z');

-- Data bundles, per network, cheapest first.
INSERT INTO vas_products (category_id, bundle_code, name, amount_kobo, duration, is_amount_fixed, position) VALUES
  -- MTN
  ('61e989f20e69308aa37a7a9f', 'mtn-110mb-1d',  'MTN 110MB Daily',     10000,   '1 day',   true, 1),
  ('61e989f20e69308aa37a7a9f', 'mtn-230mb-1d',  'MTN 230MB Daily',     20000,   '1 day',   true, 2),
  ('61e989f20e69308aa37a7a9f', 'mtn-1gb-1d',    'MTN 1GB Daily',       35000,   '1 day',   true, 3),
  ('61e989f20e69308aa37a7a9f', 'mtn-1500mb-7d', 'MTN 1.5GB Weekly',    100000,  '1 week',  true, 4),
  ('61e989f20e69308aa37a7a9f', 'mtn-2gb-30d',   'MTN 2GB Monthly',     150000,  '1 month', true, 5),
  ('61e989f20e69308aa37a7a9f', 'mtn-3gb-30d',   'MTN 3GB Monthly',     200000,  '1 month', true, 6),
  ('61e989f20e69308aa37a7a9f', 'mtn-7gb-30d',   'MTN 7GB Monthly',     350000,  '1 month', true, 7),
  ('61e989f20e69308aa37a7a9f', 'mtn-10gb-30d',  'MTN 10GB Monthly',    450000,  '1 month', true, 8),
  ('61e989f20e69308aa37a7a9f', 'mtn-20gb-30d',  'MTN 20GB Monthly',    750000,  '1 month', true, 9),
  ('61e989f20e69308aa37a7a9f', 'mtn-40gb-30d',  'MTN 40GB Monthly',    1100000, '1 month', true, 10),
  -- Airtel
  ('61e98a4dbce8e444a4976651', 'airtel-75mb-1d',  'Airtel 75MB Daily',    7500,   '1 day',   true, 1),
  ('61e98a4dbce8e444a4976651', 'airtel-200mb-3d', 'Airtel 200MB 3-Day',   20000,  '3 days',  true, 2),
  ('61e98a4dbce8e444a4976651', 'airtel-1gb-1d',   'Airtel 1GB Daily',     35000,  '1 day',   true, 3),
  ('61e98a4dbce8e444a4976651', 'airtel-1gb-7d',   'Airtel 1GB Weekly',    80000,  '1 week',  true, 4),
  ('61e98a4dbce8e444a4976651', 'airtel-2gb-30d',  'Airtel 2GB Monthly',   150000, '1 month', true, 5),
  ('61e98a4dbce8e444a4976651', 'airtel-3gb-30d',  'Airtel 3GB Monthly',   200000, '1 month', true, 6),
  ('61e98a4dbce8e444a4976651', 'airtel-10gb-30d', 'Airtel 10GB Monthly',  400000, '1 month', true, 7),
  ('61e98a4dbce8e444a4976651', 'airtel-18gb-30d', 'Airtel 18GB Monthly',  600000, '1 month', true, 8),
  -- Etisalat (9mobile)
  ('61e98a67bce8e444a4976654', '9m-100mb-1d',  '9mobile 100MB Daily',    10000,  '1 day',   true, 1),
  ('61e98a67bce8e444a4976654', '9m-650mb-1d',  '9mobile 650MB Daily',    20000,  '1 day',   true, 2),
  ('61e98a67bce8e444a4976654', '9m-1gb-7d',    '9mobile 1GB Weekly',     60000,  '1 week',  true, 3),
  ('61e98a67bce8e444a4976654', '9m-2gb-30d',   '9mobile 2GB Monthly',    120000, '1 month', true, 4),
  ('61e98a67bce8e444a4976654', '9m-4500mb-30d', '9mobile 4.5GB Monthly', 200000, '1 month', true, 5),
  ('61e98a67bce8e444a4976654', '9m-11gb-30d',  '9mobile 11GB Monthly',   400000, '1 month', true, 6),
  ('61e98a67bce8e444a4976654', '9m-15gb-30d',  '9mobile 15GB Monthly',   500000, '1 month', true, 7),
  -- Glo
  ('61e98a31bce8e444a497664e', 'glo-125mb-1d',  'Glo 125MB Daily',    10000,  '1 day',   true, 1),
  ('61e98a31bce8e444a497664e', 'glo-1gb-1d',    'Glo 1GB Daily',      30000,  '1 day',   true, 2),
  ('61e98a31bce8e444a497664e', 'glo-1500mb-7d', 'Glo 1.5GB Weekly',   50000,  '1 week',  true, 3),
  ('61e98a31bce8e444a497664e', 'glo-2600mb-30d', 'Glo 2.6GB Monthly', 100000, '1 month', true, 4),
  ('61e98a31bce8e444a497664e', 'glo-5gb-30d',   'Glo 5GB Monthly',    150000, '1 month', true, 5),
  ('61e98a31bce8e444a497664e', 'glo-10gb-30d',  'Glo 10GB Monthly',   300000, '1 month', true, 6),
  ('61e98a31bce8e444a497664e', 'glo-18gb-30d',  'Glo 18GB Monthly',   500000, '1 month', true, 7),
  ('61e98a31bce8e444a497664e', 'glo-32gb-30d',  'Glo 32GB Monthly',   800000, '1 month', true, 8),
  -- MTN corporate data
  ('6502e9a236208a4de6d1b2ac', 'mtncg-500mb-30d', 'MTN Corporate 500MB Monthly', 30000,   '1 month', true, 1),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-1gb-30d',   'MTN Corporate 1GB Monthly',   55000,   '1 month', true, 2),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-2gb-30d',   'MTN Corporate 2GB Monthly',   110000,  '1 month', true, 3),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-3gb-30d',   'MTN Corporate 3GB Monthly',   165000,  '1 month', true, 4),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-5gb-30d',   'MTN Corporate 5GB Monthly',   275000,  '1 month', true, 5),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-10gb-30d',  'MTN Corporate 10GB Monthly',  550000,  '1 month', true, 6),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-20gb-30d',  'MTN Corporate 20GB Monthly',  1100000, '1 month', true, 7);

-- Cable bouquets. Each list ends with the Top Up, whose amount the buyer chooses.
INSERT INTO vas_products (category_id, bundle_code, name, amount_kobo, duration, is_amount_fixed, position) VALUES
  -- DStv: bouquets db1..db6, then bouquet + add-on combinations (bouquet code|add-on code).
  ('61e98b3562d9b6a917f9302a', 'db1',     'DStv Padi',                   360000,  '1 month',    true,  1),
  ('61e98b3562d9b6a917f9302a', 'db2',     'DStv Yanga',                  510000,  '1 month',    true,  2),
  ('61e98b3562d9b6a917f9302a', 'db3',     'DStv Confam',                 930000,  '1 month',    true,  3),
  ('61e98b3562d9b6a917f9302a', 'db4',     'DStv Compact',                1570000, '1 month',    true,  4),
  ('61e98b3562d9b6a917f9302a', 'db5',     'DStv Compact Plus',           2500000, '1 month',    true,  5),
  ('61e98b3562d9b6a917f9302a', 'db6',     'DStv Premium',                3700000, '1 month',    true,  6),
  ('61e98b3562d9b6a917f9302a', 'db1|da1', 'DStv Padi + Movies',          710000,  '1 month',    true,  7),
  ('61e98b3562d9b6a917f9302a', 'db2|da1', 'DStv Yanga + Movies',         860000,  '1 month',    true,  8),
  ('61e98b3562d9b6a917f9302a', 'db3|da1', 'DStv Confam + Movies',        1280000, '1 month',    true,  9),
  ('61e98b3562d9b6a917f9302a', 'db4|da2', 'DStv Compact + XtraView',     2070000, '1 month',    true,  10),
  ('61e98b3562d9b6a917f9302a', 'db4|da4', 'DStv Compact + French Touch', 2270000, '1 month',    true,  11),
  ('61e98b3562d9b6a917f9302a', 'db5|da3', 'DStv Compact Plus + HDPVR Access', 3000000, '1 month', true, 12),
  ('61e98b3562d9b6a917f9302a', 'db5|da5', 'DStv Compact Plus + Asia',    3740000, '1 month',    true,  13),
  ('61e98b3562d9b6a917f9302a', 'db6|da2', 'DStv Premium + XtraView',     4200000, '1 month',    true,  14),
  ('61e98b3562d9b6a917f9302a', 'db6|da6', 'DStv Premium + French Plus', 6150000, '1 month',    true,  15),
  ('61e98b3562d9b6a917f9302a', 'db6|da7', 'DStv Premium + French Plus + XtraView', 6650000, '1 month', true, 16),
  ('61e98b3562d9b6a917f9302a', 'TOP_UP',  'Top Up',                      NULL,    '1 one-time', false, 17),
  -- GOtv
  ('61e98b6462d9b6a917f9302d', 'gb1',    'Gotv Supa+',    1390000, '1 month',    true,  1),
  ('61e98b6462d9b6a917f9302d', 'gb2',    'GOtv Supa',     1250000, '1 month',    true,  2),
  ('61e98b6462d9b6a917f9302d', 'gb3',    'GOtv Max',      1100000, '1 month',    true,  3),
  ('61e98b6462d9b6a917f9302d', 'gb4',    'GOtv Jolli',    960000,  '1 month',    true,  4),
  ('61e98b6462d9b6a917f9302d', 'gb5',    'GOtv Jinja',    850000,  '1 month',    true,  5),
  ('61e98b6462d9b6a917f9302d', 'gb6',    'GOtv Smallie',  750000,  '1 month',    true,  6),
  ('61e98b6462d9b6a917f9302d', 'gb7',    'GOtv Open',     660000,  '1 month',    true,  7),
  ('61e98b6462d9b6a917f9302d', 'TOP_UP', 'Top Up',        NULL,    '1 one-time', false, 8),
  -- StarTimes: antenna (terrestrial) and dish (satellite) bouquets, weekly and monthly.
  ('61e98b8a90dbbfc905f48f07', 'sb1',    'StarTimes Nova (Antenna)',    60000,   '1 week',     true,  1),
  ('61e98b8a90dbbfc905f48f07', 'sb2',    'StarTimes Nova (Dish)',       70000,   '1 week',     true,  2),
  ('61e98b8a90dbbfc905f48f07', 'sb3',    'StarTimes Basic (Antenna)',   130000,  '1 week',     true,  3),
  ('61e98b8a90dbbfc905f48f07', 'sb4',    'StarTimes Smart (Dish)',      160000,  '1 week',     true,  4),
  ('61e98b8a90dbbfc905f48f07', 'sb5',    'StarTimes Nova (Antenna)',    190000,  '1 month',    true,  5),
  ('61e98b8a90dbbfc905f48f07', 'sb6',    'StarTimes Classic (Antenna)', 200000,  '1 week',     true,  6),
  ('61e98b8a90dbbfc905f48f07', 'sb7',    'StarTimes Nova (Dish)',       210000,  '1 month',    true,  7),
  ('61e98b8a90dbbfc905f48f07', 'sb8',    'StarTimes Super (Antenna)',   270000,  '1 week',     true,  8),
  ('61e98b8a90dbbfc905f48f07', 'sb9',    'StarTimes Super (Dish)',      280000,  '1 week',     true,  9),
  ('61e98b8a90dbbfc905f48f07', 'sb10',   'StarTimes Basic (Antenna)',   400000,  '1 month',    true,  10),
  ('61e98b8a90dbbfc905f48f07', 'sb11',   'StarTimes Smart (Dish)',      510000,  '1 month',    true,  11),
  ('61e98b8a90dbbfc905f48f07', 'sb12',   'StarTimes Classic (Antenna)', 600000,  '1 month',    true,  12),
  ('61e98b8a90dbbfc905f48f07', 'sb13',   'StarTimes Chinese (Dish)',    630000,  '1 week',     true,  13),
  ('61e98b8a90dbbfc905f48f07', 'sb14',   'StarTimes Super (Antenna)',   800000,  '1 month',    true,  14),
  ('61e98b8a90dbbfc905f48f07', 'sb15',   'StarTimes Super (Dish)',      840000,  '1 month',    true,  15),
  ('61e98b8a90dbbfc905f48f07', 'sb16',   'StarTimes Chinese (Antenna)', 1400000, '1 month',    true,  16),
  ('61e98b8a90dbbfc905f48f07', 'sb17',   'StarTimes Chinese (Dish)',    1900000, '1 month',    true,  17),
  ('61e98b8a90dbbfc905f48f07', 'TOP_UP', 'Top Up',                      NULL,    '1 one-time', false, 18);

-- USSD payments (modules/ussd): a reference a customer dials at their own bank
-- (`*737*000*REFERENCE#`), paid once, into one of the client's accounts, through the USSD
-- gateway. A Pending reference past expires_at reads as Expired (decided on read, no sweep).
CREATE TABLE ussd_references (
  id                        text PRIMARY KEY,
  reference                 text NOT NULL UNIQUE,
  client_id                 text NOT NULL REFERENCES clients (id),
  merchant_name             text NOT NULL,
  -- The bank the reference was created for: its USSD code (737), which the dial string uses.
  ussd_bank_code            text NOT NULL,
  amount_kobo               bigint NOT NULL CHECK (amount_kobo > 0),
  settlement_account_id     text NOT NULL REFERENCES accounts (id),
  -- Account numbers never change: kept here so a read needs no other module's table.
  settlement_account_number text NOT NULL,
  -- Null for a reference made by checkout: its events go to the client's webhook URL.
  callback_url              text,
  status                    text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Paid')),
  expires_at                timestamptz NOT NULL,
  -- The accepted payment: the settlement account's Inwards transfer and what the gateway said.
  transfer_id               text,
  session_id                text UNIQUE,
  paid_ussd_bank_code       text,
  paid_kobo                 bigint,
  paid_at                   timestamptz,
  -- Status queries to the gateway, for a payment whose notice never arrived.
  status_queries            integer NOT NULL DEFAULT 0,
  next_status_query_at      timestamptz,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  CHECK ((status = 'Paid') = (transfer_id IS NOT NULL))
);
CREATE INDEX ussd_references_by_client ON ussd_references (client_id, created_at DESC, id DESC);
CREATE INDEX ussd_references_due_queries ON ussd_references (next_status_query_at)
  WHERE status = 'Pending' AND next_status_query_at IS NOT NULL;

-- The sandbox USSD gateway's own book (modules/ussd/providers/ussd-gateway-simulator.ts): the
-- references it issued and the payments the payers' banks completed on them. It stands in for
-- the aggregator, so it never reads the bank's tables, nor they its.
CREATE TABLE ussd_simulator_references (
  reference          text PRIMARY KEY,
  amount_kobo        bigint NOT NULL,
  merchant_name      text NOT NULL,
  expires_at         timestamptz NOT NULL,
  session_id         text,
  paid_ussd_bank_code text,
  paid_kobo          bigint,
  paid_at            timestamptz,
  created_at         timestamptz NOT NULL
);

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
  -- A referenceCode does not name one session: each distinct config opened for it (amount,
  -- customer, URLs, metadata, origin) is a session of its own, so a stranger who opens a
  -- merchant's reference first never hands the merchant's page a session that someone else
  -- configured (docs/adr/0001-checkout-bound-to-registered-settings.md).
  CONSTRAINT checkout_sessions_one_per_config UNIQUE (client_id, reference_code, request_hash)
);
-- What the completion worker looks at: open sessions with a method that may have been paid.
CREATE INDEX checkout_sessions_awaiting_payment ON checkout_sessions (next_check_at)
  WHERE status = 'Pending' AND next_check_at IS NOT NULL;

-- The origins a client's checkout pages are served from (the widget's Origin, and where the
-- customer may be redirected), and the extra URLs its checkout.payment events may go to.
CREATE TABLE checkout_settings (
  client_id       text PRIMARY KEY REFERENCES clients (id),
  allowed_origins text[] NOT NULL DEFAULT '{}',
  webhook_urls    text[] NOT NULL DEFAULT '{}',
  updated_at      timestamptz NOT NULL
);

-- The audit trail (audit): operator actions and security events, appended and never changed
-- (the triggers of src/audit/sql/audit_events_append_only.sql refuse the rest). Details hold ids
-- and outcomes only, never a secret, a token or a request body.
CREATE TABLE audit_events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         timestamptz NOT NULL,
  actor      text NOT NULL,
  action     text NOT NULL,
  target     text,
  outcome    text NOT NULL,
  source_ip  text,
  request_id text,
  details    jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_action ON audit_events (action, at);
