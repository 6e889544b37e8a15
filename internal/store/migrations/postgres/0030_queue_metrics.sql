-- Queue metrics: one sample per change of a queue's entries (and a periodic
-- refresh), read back in time buckets by queues.get_queue_metrics.
-- ts is epoch milliseconds; avg_waiting is in seconds.
CREATE TABLE queue_metrics (
    company      TEXT NOT NULL,
    queue        TEXT NOT NULL,
    ts           BIGINT NOT NULL,
    queue_length INTEGER NOT NULL,
    avg_waiting  DOUBLE PRECISION NOT NULL
);
CREATE INDEX queue_metrics_company_ts ON queue_metrics (company, ts);
CREATE INDEX queue_metrics_queue_ts ON queue_metrics (queue, ts);
