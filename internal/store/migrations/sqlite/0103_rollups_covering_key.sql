-- PostgreSQL's 0103 makes the rollups' key cover cnt and total so that
-- histograms read it alone. SQLite's rollups are a WITHOUT ROWID table:
-- the rows already live in the key's b-tree, in key order. Nothing to do.
SELECT 1;
