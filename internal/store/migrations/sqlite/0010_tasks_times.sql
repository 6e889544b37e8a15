-- Task times filtered and sorted by list queries get real columns (epoch ms).
ALTER TABLE tasks ADD COLUMN last_change BIGINT;
ALTER TABLE tasks ADD COLUMN started BIGINT;
