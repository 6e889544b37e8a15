-- The primary key of event_scalars grows at the end of every series at
-- once (all of a fleet's series advance together), so its leaves split
-- "after the new item": the left page keeps what it has and only takes
-- more if the index's fillfactor leaves room. At the default 90 the
-- leaves of a series end up about 85% full (33 bytes per point for a
-- 28-byte entry). Points are rarely replaced, so the leaves are filled
-- whole. Applies to splits from now on (a REINDEX repacks old leaves).
ALTER INDEX event_scalars_pkey SET (fillfactor = 100);
