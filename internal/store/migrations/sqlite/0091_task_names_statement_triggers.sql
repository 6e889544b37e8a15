-- PostgreSQL migration 0091 runs migration 0075's upkeep once per
-- statement instead of once per row. SQLite has no statement triggers; its
-- row triggers run in the process, without a call per row into another
-- language, so it keeps them. Nothing changes here.
SELECT 1;
