-- Staged scalar points (issue 15, long series). event_scalars is
-- clustered by (series, iter): once a series outgrows a page, each series
-- ends in a page of its own, and a batch of one iteration of 50 series
-- changes 50 pages, each written to the log at commit and again at the
-- checkpoint. Points of small batches land here instead, where a task's
-- series still share pages, and a background job moves them into
-- event_scalars a range of series at a time (events_staged.go). A point
-- is in exactly one of the two tables.
CREATE TABLE event_scalars_staged (
    series INTEGER NOT NULL,
    iter   INTEGER NOT NULL,
    value  REAL NOT NULL,
    dts    INTEGER NOT NULL,
    dwts   INTEGER NOT NULL,
    PRIMARY KEY (series, iter)
) WITHOUT ROWID;
