-- Index the full read orders (PostgreSQL has no implicit row id in its
-- indexes): a page of a task's log or documents is then an index range
-- whatever the planner's statistics say about the task, as after a large
-- load before autovacuum has analysed the table.
DROP INDEX event_logs_task_ts;
CREATE INDEX event_logs_task_ts ON event_logs (task, ts, id);
DROP INDEX event_logs_task_iter;
CREATE INDEX event_logs_task_iter ON event_logs (task, iter, ts, id) WHERE iter IS NOT NULL;
DROP INDEX event_docs_iter;
CREATE INDEX event_docs_iter ON event_docs (task, etype, iter, id);
