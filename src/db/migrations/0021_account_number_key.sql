-- Accounts (modules/accounts): the key of the permutation that turns the account serial into
-- the 9 digits of a NUBAN, so new account numbers are not guessable in sequence. Made once, at
-- random, with the data it numbers: it never changes (another key would reuse numbers).
CREATE TABLE account_number_keys (
  id   integer PRIMARY KEY CHECK (id = 1),
  key  bytea NOT NULL
);
-- Two version-4 UUIDs: 244 random bits from the server's strong random source.
INSERT INTO account_number_keys (id, key)
VALUES (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
