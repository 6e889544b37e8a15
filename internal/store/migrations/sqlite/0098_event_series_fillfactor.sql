-- PostgreSQL's 0098 leaves free room in the pages of event_series so that
-- the per-batch updates of its rows stay on their pages. SQLite updates a
-- row in place in its b-tree and has no such setting: nothing to do here.
SELECT 1;
