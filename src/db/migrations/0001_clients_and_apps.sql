-- Clients (the businesses that own accounts), their OAuth apps, the apps' public keys and the
-- refresh tokens issued to them. Client ids double as the `ibs_client_id` of the published API.
CREATE TABLE clients (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  email_address text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

CREATE TABLE oauth_apps (
  id              text PRIMARY KEY,
  client_id       text NOT NULL REFERENCES clients (id),
  oauth_client_id text NOT NULL UNIQUE,
  name            text NOT NULL,
  created_at      timestamptz NOT NULL,
  revoked_at      timestamptz
);
CREATE INDEX oauth_apps_client_idx ON oauth_apps (client_id);

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

-- Only used when ASSERTION_REJECT_REUSED_JTI is on: one row per accepted assertion `jti`.
CREATE TABLE used_assertion_ids (
  app_id     text NOT NULL REFERENCES oauth_apps (id),
  jti        text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, jti)
);
