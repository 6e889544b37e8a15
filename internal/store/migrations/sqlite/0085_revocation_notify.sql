-- Logouts are announced to other processes on PostgreSQL only: a SQLite
-- database is owned by one process, which sees its own logouts at once.
SELECT 1;
