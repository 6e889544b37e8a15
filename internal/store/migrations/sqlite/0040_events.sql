-- Events: the volume of Trove. Scalars are narrow rows clustered by series
-- and iteration; per-series rollups let histograms read a bounded number of
-- rows; plots, debug images and vectors are documents; logs are ordered by
-- (task, timestamp). Events carry no company: they are reached through
-- their task or model, whose company the handlers check.

-- One row per (task or model, metric, variant) of scalar events.
-- max_iter is the highest stored iteration (the append fast path of
-- ingest); worker is the first reporting worker (rows of the same worker
-- store NULL); last_wts is the newest write time (epoch ms).
CREATE TABLE event_series (
    id          INTEGER PRIMARY KEY,
    task        TEXT NOT NULL,
    metric      TEXT NOT NULL,
    variant     TEXT NOT NULL,
    model_event INTEGER NOT NULL DEFAULT 0,
    worker      TEXT NOT NULL DEFAULT '',
    max_iter    INTEGER NOT NULL,
    last_wts    INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX event_series_key ON event_series (task, metric, variant);

-- Scalar points, clustered by (series, iter): a series is one contiguous
-- range of the b-tree. iter -9223372036854775808 stands for "no iteration".
CREATE TABLE event_scalars (
    series INTEGER NOT NULL,
    iter   INTEGER NOT NULL,
    value  REAL NOT NULL,
    ts     INTEGER NOT NULL,
    wts    INTEGER NOT NULL,
    worker TEXT,
    extra  TEXT,
    PRIMARY KEY (series, iter)
) WITHOUT ROWID;

-- Sum and count of a series' points per bucket of 2^level iterations
-- (bucket = first iteration). Single values and points without iteration
-- are left out, as histograms leave them out.
CREATE TABLE event_scalar_rollups (
    series INTEGER NOT NULL,
    level  INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    cnt    INTEGER NOT NULL,
    total  REAL NOT NULL,
    PRIMARY KEY (series, level, bucket)
) WITHOUT ROWID;

-- Plots, debug images and vectors. The identity of an event is (task,
-- etype, metric, variant, iter, ekey); a re-sent identity replaces the row.
-- doc is the event without plot_str, which lives in plot (plain) or plot_z
-- (zstd, for large plots).
CREATE TABLE event_docs (
    id      INTEGER PRIMARY KEY,
    task    TEXT NOT NULL,
    etype   TEXT NOT NULL,
    metric  TEXT NOT NULL,
    variant TEXT NOT NULL,
    iter    INTEGER NOT NULL,
    ekey    TEXT NOT NULL,
    ts      INTEGER NOT NULL,
    url     TEXT,
    doc     TEXT NOT NULL,
    plot    TEXT,
    plot_z  BLOB
);
CREATE UNIQUE INDEX event_docs_identity ON event_docs (task, etype, metric, variant, iter, ekey);
CREATE INDEX event_docs_iter ON event_docs (task, etype, iter);

-- Console output, read by timestamp; id keeps the order of equal times.
CREATE TABLE event_logs (
    id      INTEGER PRIMARY KEY,
    task    TEXT NOT NULL,
    ts      INTEGER NOT NULL,
    wts     INTEGER NOT NULL,
    iter    INTEGER,
    level   TEXT,
    worker  TEXT,
    msg     TEXT,
    metric  TEXT NOT NULL DEFAULT '',
    variant TEXT NOT NULL DEFAULT '',
    extra   TEXT
);
CREATE INDEX event_logs_task_ts ON event_logs (task, ts);
CREATE INDEX event_logs_task_iter ON event_logs (task, iter) WHERE iter IS NOT NULL;

-- Navigation states of debug image and plot browsing (random ids scoped
-- to a company, sliding expiry in epoch ms).
CREATE TABLE event_scrolls (
    id      TEXT PRIMARY KEY,
    company TEXT NOT NULL,
    kind    TEXT NOT NULL,
    state   TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE INDEX event_scrolls_expires ON event_scrolls (expires);
