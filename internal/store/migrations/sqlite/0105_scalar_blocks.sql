-- PostgreSQL's 0105 packs rolled-up scalar points into blocks, since a
-- row per point costs it about 90 bytes. SQLite's WITHOUT ROWID points
-- take under 30 bytes each as they are: nothing to do here.
SELECT 1;
