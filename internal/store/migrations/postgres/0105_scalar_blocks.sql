-- Packed scalar points (issue 15, bytes per point). A PostgreSQL row per
-- point costs about 90 bytes (tuple header, line pointer, key entry) for
-- 28 bytes of data. Once a series' points are in its rollups, the packer
-- moves them out of event_scalars into blocks of up to 1,024 points of one
-- series: one row holding each column as an array, compressed out of line
-- by TOAST. A point is in exactly one of the two tables; blocks of a series
-- never overlap in iterations, and iters is NULL when a block's iterations
-- run without gaps from first_iter to last_iter (the usual training loop).
-- n is the block's point count, read without unpacking its arrays.
CREATE TABLE event_scalar_blocks (
    series     BIGINT NOT NULL,
    first_iter BIGINT NOT NULL,
    last_iter  BIGINT NOT NULL,
    n          INTEGER NOT NULL,
    iters      BIGINT[],
    vals       DOUBLE PRECISION[] NOT NULL,
    dts        BIGINT[] NOT NULL,
    dwts       INTEGER[] NOT NULL,
    PRIMARY KEY (series, first_iter)
);

-- Points above packed_through have never been packed: the packer takes a
-- series' points in (packed_through, rolled_through]. Points at or below
-- the single-value iteration are never packed.
ALTER TABLE event_series ADD COLUMN packed_through BIGINT NOT NULL DEFAULT -2147483648;

-- LZ4 where the server has it (PostgreSQL 14 on, built with it): faster
-- than the default pglz, at about the same size for these arrays.
DO $$
BEGIN
    ALTER TABLE event_scalar_blocks
        ALTER COLUMN iters SET COMPRESSION lz4,
        ALTER COLUMN vals SET COMPRESSION lz4,
        ALTER COLUMN dts SET COMPRESSION lz4,
        ALTER COLUMN dwts SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    NULL;
END
$$;
