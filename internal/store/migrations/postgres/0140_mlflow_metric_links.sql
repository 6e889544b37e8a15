-- MLflow metric links (issue 38): a metric point may name the logged
-- model it measures (model_id) and the dataset it was computed on
-- (dataset_name, dataset_digest). Empty text when the point names none.
-- A logged model's metrics are read by model_id.
ALTER TABLE mlflow_metrics ADD COLUMN model_id TEXT NOT NULL DEFAULT '';
ALTER TABLE mlflow_metrics ADD COLUMN dataset_name TEXT NOT NULL DEFAULT '';
ALTER TABLE mlflow_metrics ADD COLUMN dataset_digest TEXT NOT NULL DEFAULT '';
CREATE INDEX mlflow_metrics_model ON mlflow_metrics (model_id) WHERE model_id <> '';
