-- Core schema. Records are JSON documents (doc) in the API's shape, with
-- the fields that are filtered and sorted often copied into real columns.
-- Times in columns are epoch milliseconds.
-- Insertion order for listings without order_by.
CREATE SEQUENCE trove_seq;

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE companies (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    doc  JSONB NOT NULL
);

CREATE TABLE users (
    id      TEXT PRIMARY KEY,
    company TEXT NOT NULL,
    name    TEXT NOT NULL,
    role    TEXT NOT NULL,
    created BIGINT NOT NULL,
    doc     JSONB NOT NULL
);

CREATE TABLE credentials (
    access_key  TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    company     TEXT NOT NULL,
    created     BIGINT NOT NULL,
    last_used   BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE revoked_sessions (
    session_id TEXT PRIMARY KEY,
    expires    BIGINT NOT NULL
);

CREATE TABLE projects (
    id          TEXT PRIMARY KEY,
    company     TEXT NOT NULL,
    name        TEXT NOT NULL,
    basename    TEXT NOT NULL,
    parent      TEXT,
    user_id     TEXT NOT NULL,
    created     BIGINT NOT NULL,
    last_update BIGINT NOT NULL,
    tags        JSONB NOT NULL DEFAULT '[]',
    system_tags JSONB NOT NULL DEFAULT '[]',
    doc         JSONB NOT NULL,
    seq         BIGINT NOT NULL DEFAULT nextval('trove_seq')
);
CREATE UNIQUE INDEX projects_company_name ON projects (company, name);
CREATE INDEX projects_parent ON projects (parent);

CREATE TABLE tasks (
    id             TEXT PRIMARY KEY,
    company        TEXT NOT NULL,
    name           TEXT NOT NULL,
    project        TEXT,
    parent         TEXT,
    user_id        TEXT NOT NULL,
    type           TEXT NOT NULL,
    status         TEXT NOT NULL,
    created        BIGINT NOT NULL,
    last_update    BIGINT NOT NULL,
    status_changed BIGINT,
    tags           JSONB NOT NULL DEFAULT '[]',
    system_tags    JSONB NOT NULL DEFAULT '[]',
    doc            JSONB NOT NULL,
    seq            BIGINT NOT NULL DEFAULT nextval('trove_seq')
);
CREATE INDEX tasks_company_project_update ON tasks (company, project, last_update);
CREATE INDEX tasks_company_update ON tasks (company, last_update);
CREATE INDEX tasks_company_status ON tasks (company, status);
CREATE INDEX tasks_parent ON tasks (parent);

CREATE TABLE models (
    id          TEXT PRIMARY KEY,
    company     TEXT NOT NULL,
    name        TEXT NOT NULL,
    project     TEXT,
    task        TEXT,
    user_id     TEXT NOT NULL,
    framework   TEXT,
    ready       BOOLEAN NOT NULL DEFAULT FALSE,
    uri         TEXT,
    created     BIGINT NOT NULL,
    last_update BIGINT NOT NULL,
    tags        JSONB NOT NULL DEFAULT '[]',
    system_tags JSONB NOT NULL DEFAULT '[]',
    doc         JSONB NOT NULL,
    seq         BIGINT NOT NULL DEFAULT nextval('trove_seq')
);
CREATE INDEX models_company_project ON models (company, project, last_update);
CREATE INDEX models_task ON models (task);

CREATE TABLE list_scrolls (
    id       TEXT PRIMARY KEY,
    company  TEXT NOT NULL,
    position INTEGER NOT NULL,
    expires  BIGINT NOT NULL
);

-- Helpers the SQLite backend gets as Go functions.
CREATE FUNCTION trove_num(t text) RETURNS double precision AS $$
    SELECT CASE WHEN t ~ '^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$' THEN t::double precision END
$$ LANGUAGE sql IMMUTABLE;
CREATE FUNCTION trove_num(j jsonb) RETURNS double precision AS $$
    SELECT CASE jsonb_typeof(j) WHEN 'number' THEN (j #>> '{}')::double precision
        WHEN 'string' THEN trove_num(j #>> '{}') END
$$ LANGUAGE sql IMMUTABLE;
CREATE FUNCTION trove_arrlen(j jsonb) RETURNS integer AS $$
    SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN jsonb_array_length(j) ELSE 0 END
$$ LANGUAGE sql IMMUTABLE;
CREATE FUNCTION trove_arr(j jsonb) RETURNS jsonb AS $$
    SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN j ELSE '[]'::jsonb END
$$ LANGUAGE sql IMMUTABLE;
