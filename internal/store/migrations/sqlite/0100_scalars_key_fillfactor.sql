-- PostgreSQL's 0100 fills the leaves of the scalar points' primary key
-- whole. SQLite's points are one WITHOUT ROWID b-tree whose pages it
-- packs itself: nothing to do here.
SELECT 1;
