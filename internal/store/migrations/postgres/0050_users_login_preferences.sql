-- Users log in to the web app with a username and a bcrypt-hashed
-- password (from the configuration); each user keeps its web app
-- preferences as one JSON text; access keys carry a label and the address
-- they were last used from.
ALTER TABLE users ADD COLUMN username TEXT;
ALTER TABLE users ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX users_username ON users (username);
CREATE INDEX users_company_name ON users (company, name);
ALTER TABLE credentials ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE credentials ADD COLUMN last_used_from TEXT NOT NULL DEFAULT '';
CREATE INDEX credentials_user ON credentials (user_id);
-- users.get_all lists users in insertion order without order_by.
ALTER TABLE users ADD COLUMN seq BIGINT NOT NULL DEFAULT nextval('trove_seq');
