-- MLflow metric history (issue 38): every logged point of a run, in the
-- order logged, duplicates kept. value is the number's exact text, so
-- NaN and +/-Inf round-trip (the scalar events refuse them). The finite
-- points are also written to the run's scalar series for the ClearML API.
CREATE TABLE mlflow_metrics (
    id         INTEGER PRIMARY KEY,
    task       TEXT NOT NULL,
    metric_key TEXT NOT NULL,
    step       BIGINT NOT NULL,
    ts         BIGINT NOT NULL,
    value      TEXT NOT NULL
);
CREATE INDEX mlflow_metrics_key ON mlflow_metrics (task, metric_key, step, ts);
