-- Workers registered by clearml-agent and others. id is the worker key
-- (company, user and worker id); a worker is gone once expires (epoch ms)
-- has passed, so every process agrees without a sweep.
CREATE TABLE workers (
    id            TEXT PRIMARY KEY,
    company       TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    worker        TEXT NOT NULL,
    last_activity BIGINT NOT NULL,
    expires       BIGINT NOT NULL,
    tags          JSONB NOT NULL DEFAULT '[]',
    system_tags   JSONB NOT NULL DEFAULT '[]',
    doc           JSONB NOT NULL
);
CREATE INDEX workers_company_expires ON workers (company, expires);

-- Machine statistics of status reports: one row per reported value.
CREATE TABLE worker_stats (
    company  TEXT NOT NULL,
    worker   TEXT NOT NULL,
    ts       BIGINT NOT NULL,
    task     TEXT,
    category TEXT NOT NULL,
    metric   TEXT NOT NULL,
    variant  TEXT NOT NULL,
    value    DOUBLE PRECISION NOT NULL
);
CREATE INDEX worker_stats_company_ts ON worker_stats (company, ts);
CREATE INDEX worker_stats_company_worker_ts ON worker_stats (company, worker, ts);
