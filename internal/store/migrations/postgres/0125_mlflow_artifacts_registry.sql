-- MLflow artifacts and model registry (issue 38). mlflow_artifacts lists
-- the files stored through MLflow's artifact proxy (the bytes are in the
-- file storage, under the company's "mlflow/" folder; storage backends
-- cannot list, so the index answers MLflow's list calls). The registry's
-- registered models and their versions are documents keyed by name.
CREATE TABLE mlflow_artifacts (
    company  TEXT NOT NULL,
    path     TEXT NOT NULL,
    size     BIGINT NOT NULL,
    modified BIGINT NOT NULL,
    PRIMARY KEY (company, path)
);
CREATE TABLE mlflow_registered_models (
    company TEXT NOT NULL,
    name    TEXT NOT NULL,
    doc     TEXT NOT NULL,
    PRIMARY KEY (company, name)
);
CREATE TABLE mlflow_model_versions (
    company TEXT NOT NULL,
    name    TEXT NOT NULL,
    version BIGINT NOT NULL,
    doc     TEXT NOT NULL,
    PRIMARY KEY (company, name, version)
);
