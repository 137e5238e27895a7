-- A NIP transfer saves its beneficiary only once it succeeds, so the request's choice is kept.
ALTER TABLE transfers ADD COLUMN save_beneficiary boolean NOT NULL DEFAULT false;
