-- The read-order indexes of PostgreSQL migration 0042, so that both
-- dialects declare the same schema (schema_test.go compares them). SQLite
-- already appended the row id (id) to these indexes implicitly, so the
-- order they give is unchanged.
DROP INDEX event_logs_task_ts;
CREATE INDEX event_logs_task_ts ON event_logs (task, ts, id);
DROP INDEX event_logs_task_iter;
CREATE INDEX event_logs_task_iter ON event_logs (task, iter, ts, id) WHERE iter IS NOT NULL;
DROP INDEX event_docs_iter;
CREATE INDEX event_docs_iter ON event_docs (task, etype, iter, id);
