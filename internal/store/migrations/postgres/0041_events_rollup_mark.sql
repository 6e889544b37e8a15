-- Scalar rollups are built behind ingest by a background job: the points
-- of a series with iter <= rolled_through are in its rollups, later points
-- are read from event_scalars by histograms. Rollups of existing series
-- were kept by ingest itself, so they are complete up to their highest
-- point.
ALTER TABLE event_series ADD COLUMN rolled_through BIGINT NOT NULL DEFAULT -2147483648;
UPDATE event_series SET rolled_through = max_iter WHERE max_iter > -2147483648;
