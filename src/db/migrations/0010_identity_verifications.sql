-- Identity and credit checks a client ran (POST /identity/v2), and their OTP challenges.
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
  verified_at         timestamptz
);
CREATE INDEX identity_verifications_client_idx
  ON identity_verifications (client_id, created_at DESC, id DESC);
