-- Webhooks: each client's destination and signing secrets, the transactional outbox of events,
-- and every delivery attempt. An event row is written in the same transaction as the change it
-- reports; a worker claims due rows with FOR UPDATE SKIP LOCKED and delivers them.
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
