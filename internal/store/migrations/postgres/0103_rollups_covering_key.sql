-- Histograms read a series' rollups of one level in bucket order. With
-- the plain key the planner fetched them from the heap, where ingest
-- interleaves every series and level (a page per few rows), through a
-- bitmap scan and then sorted them. The key now carries cnt and total,
-- so the read is an index-only scan of a few contiguous leaves, already
-- in order. The key columns and the constraint's name stay the same (the
-- upserts' ON CONFLICT (series, level, bucket) still finds it).
ALTER TABLE event_scalar_rollups
    DROP CONSTRAINT event_scalar_rollups_pkey,
    ADD CONSTRAINT event_scalar_rollups_pkey PRIMARY KEY (series, level, bucket) INCLUDE (cnt, total);
