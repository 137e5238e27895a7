-- Sub-accounts: accounts a client opens for its verified customers (individuals or companies).
ALTER TABLE accounts ADD COLUMN holder_type text CHECK (holder_type IN ('Individual', 'Corporate'));
ALTER TABLE accounts ADD COLUMN phone_number text;
ALTER TABLE accounts ADD COLUMN email_address text;
ALTER TABLE accounts ADD COLUMN identity_type text;
ALTER TABLE accounts ADD COLUMN identity_verification_id text REFERENCES identity_verifications (id);
ALTER TABLE accounts ADD COLUMN director_verification_ids text[] NOT NULL DEFAULT '{}';
-- Fingerprint of the creating request: the same externalReference replays only the same body.
ALTER TABLE accounts ADD COLUMN request_hash text;
ALTER TABLE accounts ADD COLUMN auto_sweep boolean NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN auto_sweep_details jsonb;
-- The client's own accounts belong to an onboarded business: full KYC.
ALTER TABLE accounts ALTER COLUMN kyc_level SET DEFAULT '3';
UPDATE accounts SET kyc_level = '3' WHERE NOT is_sub_account;
