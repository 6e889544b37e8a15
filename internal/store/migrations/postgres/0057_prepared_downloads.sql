-- Table downloads prepared by organization.prepare_download_for_get_all,
-- kept until expires (epoch ms) for download_for_get_all.
CREATE TABLE prepared_downloads (
    id      TEXT PRIMARY KEY,
    company TEXT NOT NULL,
    expires BIGINT NOT NULL,
    doc     JSONB NOT NULL
);
CREATE INDEX prepared_downloads_expires ON prepared_downloads (expires);
