-- PostgreSQL's 0107 compresses task and model documents with LZ4 instead
-- of its default pglz. SQLite does not compress rows: nothing to do here.
SELECT 1;
