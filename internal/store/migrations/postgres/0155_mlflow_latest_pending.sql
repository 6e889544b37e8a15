-- MLflow latest values kept beside the documents (issue 38): log-batch
-- marks the run here instead of rewriting its rows of
-- mlflow_latest_metrics with every batch (a run reporting 50 metrics
-- rewrote 50 rows and 50 index entries a batch). The rows follow the run
-- documents in the background, and before any search reads them.
CREATE TABLE mlflow_latest_pending (
    task TEXT PRIMARY KEY,
    seq  BIGINT NOT NULL
);
