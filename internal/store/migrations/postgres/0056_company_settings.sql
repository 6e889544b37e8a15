-- Per-company settings: the storage credentials the web app edits
-- (storage.set_settings) and the usage-statistics opt-in
-- (server.report_stats_option). id is the company id.
CREATE TABLE storage_settings (
    id          TEXT PRIMARY KEY,
    company     TEXT NOT NULL,
    last_update BIGINT NOT NULL,
    doc         JSONB NOT NULL
);

CREATE TABLE stats_options (
    id      TEXT PRIMARY KEY,
    company TEXT NOT NULL,
    doc     JSONB NOT NULL
);
