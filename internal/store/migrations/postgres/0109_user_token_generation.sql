-- Revocation reaching live tokens: a user's tokens carry the generation
-- the user had when they were issued, and a token of an older generation
-- is refused. A change of role moves the generation on.
ALTER TABLE users ADD COLUMN token_generation BIGINT NOT NULL DEFAULT 0;
