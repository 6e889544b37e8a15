-- Narrower scalar points (issue 15, bytes per point). A point keeps its
-- event time as an offset from its series' base time (event_series.ts0,
-- the earliest time of the series' first stored points) and its write
-- time as an offset from its event time: two small integers instead of
-- two epoch-ms ones. What few points carry beyond that (a worker other
-- than the series' one, members Trove does not interpret, a write time
-- too far from the event time for the offset column) lives in
-- event_scalar_extras under the same key, so the common point is five
-- numbers. Forward only: the points are moved, the old table dropped.
ALTER TABLE event_series ADD COLUMN ts0 INTEGER NOT NULL DEFAULT 0;
UPDATE event_series SET ts0 = COALESCE((SELECT MIN(ts) FROM event_scalars p WHERE p.series = event_series.id), 0);

ALTER TABLE event_scalars RENAME TO event_scalars_old;
CREATE TABLE event_scalars (
    series INTEGER NOT NULL,
    iter   INTEGER NOT NULL,
    value  REAL NOT NULL,
    dts    INTEGER NOT NULL,
    dwts   INTEGER NOT NULL,
    PRIMARY KEY (series, iter)
) WITHOUT ROWID;
INSERT INTO event_scalars (series, iter, value, dts, dwts)
SELECT p.series, p.iter, p.value, p.ts - COALESCE(s.ts0, 0),
       CASE WHEN p.wts - p.ts BETWEEN -2147483648 AND 2147483647 THEN p.wts - p.ts ELSE 0 END
FROM event_scalars_old p LEFT JOIN event_series s ON s.id = p.series;

-- wts is set only when the write time does not fit dwts (then 0).
CREATE TABLE event_scalar_extras (
    series INTEGER NOT NULL,
    iter   INTEGER NOT NULL,
    worker TEXT,
    extra  TEXT,
    wts    INTEGER,
    PRIMARY KEY (series, iter)
) WITHOUT ROWID;
INSERT INTO event_scalar_extras (series, iter, worker, extra, wts)
SELECT series, iter, worker, extra,
       CASE WHEN wts - ts BETWEEN -2147483648 AND 2147483647 THEN NULL ELSE wts END
FROM event_scalars_old
WHERE worker IS NOT NULL OR extra IS NOT NULL OR wts - ts NOT BETWEEN -2147483648 AND 2147483647;

DROP TABLE event_scalars_old;
