-- Deleting a task's events no longer deletes its scalar points in the
-- deleting transaction (millions of rows would hold the writer for
-- seconds): its series are renamed out of the task's reach
-- ('~deleted~<id>') and listed here, and a background job deletes their
-- points in chunks, then the series rows.
CREATE TABLE event_series_purge (
    id BIGINT PRIMARY KEY
);
