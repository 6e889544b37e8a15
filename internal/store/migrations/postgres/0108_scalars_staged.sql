-- SQLite's 0108 stages the points of small batches in a table of their
-- own, so that its one writer does not rewrite a page per series and
-- batch. PostgreSQL appends rows to heap pages whatever their key, and
-- its concurrent writers share the work: nothing to do here.
SELECT 1;
