-- The sandbox NIP simulator's own record of the transfers it received: the simulated network's
-- books, not OpenIBS's. Kept in the database so a status query after a restart still answers what
-- the network did, as NIBSS would. Production rails never touch it.
CREATE TABLE nip_simulator_sessions (
  session_id              text PRIMARY KEY,
  amount_kobo             bigint NOT NULL,
  send_code               text,
  status_query_codes      text[] NOT NULL CHECK (cardinality(status_query_codes) > 0),
  status_queries_answered integer NOT NULL DEFAULT 0,
  received_at             timestamptz NOT NULL
);
