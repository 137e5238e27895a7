-- Operator control: an app's or a client's tokens can be revoked at once. Access tokens are
-- stateless JWTs, so revocation is a time: a token issued at or before it is refused (auth's
-- revocation list reads these every few seconds). A disabled client gets no new token at all.
ALTER TABLE oauth_apps ADD COLUMN tokens_revoked_at timestamptz;
CREATE INDEX oauth_apps_tokens_revoked ON oauth_apps (tokens_revoked_at)
  WHERE tokens_revoked_at IS NOT NULL;

CREATE TABLE client_access (
  client_id         text PRIMARY KEY REFERENCES clients (id),
  disabled_at       timestamptz,
  tokens_revoked_at timestamptz,
  updated_at        timestamptz NOT NULL
);

-- The audit trail: operator actions and security events, appended and never changed. Details
-- hold ids and outcomes only, never a secret, a token or a request body.
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

CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
