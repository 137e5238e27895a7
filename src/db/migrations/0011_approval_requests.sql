-- Four eyes (docs/operators.md, "Four eyes"): an admin action that needs a second operator is
-- kept here, as its route validated it, until another operator approves or rejects it.
--
-- params, query and body are the request as validated. The routes four eyes may guard take no
-- secret in their bodies (a reason, a public key, a name); a route whose body holds one must
-- not be put under four eyes without changing this.
-- status: pending, then approved (claimed by its approver, executing), then applied or failed
-- (result_status and result_answer: the route's own answer); or rejected. A pending request
-- past expires_at is expired: that is read from expires_at, never written.
-- execution_secret_hash: SHA-256 of the one-time secret the approval executes the request
-- with; cleared when that execution is let through, so the secret opens it once only.
-- requested_by_operator_id is NULL for a break-glass request (the shared admin token).
CREATE TABLE approval_requests (
  id                       text PRIMARY KEY,
  route_key                text NOT NULL,
  route_role               text NOT NULL,
  params                   jsonb NOT NULL,
  query                    jsonb NOT NULL,
  body                     jsonb,
  requested_by_operator_id text REFERENCES operators (id),
  requested_by_actor       text NOT NULL,
  requested_at             timestamptz NOT NULL,
  expires_at               timestamptz NOT NULL,
  status                   text NOT NULL
    CHECK (status IN ('pending', 'approved', 'rejected', 'applied', 'failed')),
  decided_by_operator_id   text REFERENCES operators (id),
  decided_by_actor         text,
  decided_at               timestamptz,
  execution_secret_hash    text,
  result_status            integer,
  result_answer            jsonb
);
CREATE INDEX approval_requests_by_status ON approval_requests (status, requested_at DESC);
