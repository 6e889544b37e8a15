-- MLflow runs' latest metric values beside their documents (issue 38):
-- runs/search filters and orders by them (metrics.loss < 0.5, order by
-- metrics.acc DESC), which the document's JSON could only serve by reading
-- every run of the experiments. num is the latest value when finite, NULL
-- when it is NaN or +/-Inf (no comparison selects those). The write of a
-- batch keeps them with the run's document (store/mlflow_latest.go).
CREATE TABLE mlflow_latest_metrics (
    task       TEXT NOT NULL,
    metric_key TEXT NOT NULL,
    num        DOUBLE PRECISION,
    PRIMARY KEY (task, metric_key)
);
CREATE INDEX mlflow_latest_metrics_num ON mlflow_latest_metrics (metric_key, num);

INSERT INTO mlflow_latest_metrics (task, metric_key, num)
SELECT t.id, m.key, (m.value ->> 'num')::double precision
FROM tasks t, jsonb_each(t.doc -> 'mlflow' -> 'metrics') m
WHERE jsonb_typeof(t.doc -> 'mlflow' -> 'metrics') = 'object';
