-- Operators as people (docs/operators.md): each operator of the bank signs in as themselves and
-- holds roles; the audit trail names the operator, never a label the caller typed.
--
-- email is kept in lower case (the caller lowers it), so the unique index is the identity.
-- roles: a subset of viewer, support, finance, security, admin (src/auth/operator-roles.ts).
-- A local operator signs in with a password (scrypt, the encoded string carries its parameters)
-- and a TOTP second factor; totp_last_step refuses a code used once already. An operator from
-- the organisation's identity provider is found by (sso_issuer, sso_subject).
CREATE TABLE operators (
  id              text PRIMARY KEY,
  email           text NOT NULL UNIQUE,
  display_name    text NOT NULL,
  roles           text[] NOT NULL,
  status          text NOT NULL CHECK (status IN ('active', 'disabled')),
  password_hash   text,
  totp_secret     text,
  totp_last_step  bigint,
  failed_sign_ins integer NOT NULL DEFAULT 0,
  locked_until    timestamptz,
  sso_issuer      text,
  sso_subject     text,
  created_at      timestamptz NOT NULL,
  created_by      text NOT NULL,
  updated_at      timestamptz NOT NULL,
  UNIQUE (sso_issuer, sso_subject)
);

-- Personal API keys for the admin API: only the SHA-256 of the key is kept; each expires and
-- can be revoked. A disabled operator's keys stop with the operator (the lookup joins them).
CREATE TABLE operator_api_keys (
  id           text PRIMARY KEY,
  operator_id  text NOT NULL REFERENCES operators (id),
  name         text NOT NULL,
  token_hash   text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  last_used_at timestamptz
);
CREATE INDEX operator_api_keys_operator ON operator_api_keys (operator_id);

-- A dashboard session belongs to an operator (NULL: a break-glass sign-in with the admin
-- token); last_seen_at is what the idle timeout counts from.
ALTER TABLE dashboard_sessions
  ADD COLUMN operator_id  text REFERENCES operators (id),
  ADD COLUMN last_seen_at timestamptz;
CREATE INDEX dashboard_sessions_operator ON dashboard_sessions (operator_id)
  WHERE operator_id IS NOT NULL;
