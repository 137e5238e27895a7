-- Local operators' enrolment (docs/operators.md, "Local operators: password and second factor"):
-- an admin asks for a one-time setup link; the operator who opens it chooses a password and
-- registers the TOTP secret shown there, confirming it with a current code.
--
-- One live link per operator (the primary key): asking again replaces it. Only the SHA-256 of
-- the link's ticket is kept. The TOTP secret is drawn when the link is made so that the page
-- shows the same one each time it is opened; it moves to operators.totp_secret when the setup
-- completes, and the row is deleted (the link is spent).
CREATE TABLE operator_setup_tickets (
  operator_id text PRIMARY KEY REFERENCES operators (id),
  ticket_hash text NOT NULL UNIQUE,
  totp_secret text NOT NULL,
  created_at  timestamptz NOT NULL,
  created_by  text NOT NULL,
  expires_at  timestamptz NOT NULL
);
