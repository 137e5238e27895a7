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
