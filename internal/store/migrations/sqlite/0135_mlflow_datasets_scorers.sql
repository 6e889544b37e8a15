-- MLflow 3 evaluation datasets and scorers (issue 38). An evaluation
-- dataset is a record of its own (a document keyed by company and id),
-- linked to experiments (= projects) by mlflow_eval_dataset_experiments;
-- its records are rows keyed by id, one per distinct inputs (input_hash),
-- numbered in the order they were added (seq: the order records are read).
-- A scorer version holds a serialized scorer definition as data: it is
-- stored and answered, never run.
CREATE TABLE mlflow_eval_datasets (
    company TEXT NOT NULL,
    id      TEXT NOT NULL,
    name    TEXT NOT NULL,
    created BIGINT NOT NULL,
    doc     TEXT NOT NULL,
    PRIMARY KEY (company, id)
);
CREATE TABLE mlflow_eval_dataset_experiments (
    company    TEXT NOT NULL,
    dataset    TEXT NOT NULL,
    experiment TEXT NOT NULL,
    PRIMARY KEY (company, dataset, experiment)
);
CREATE INDEX mlflow_eval_dataset_experiments_exp ON mlflow_eval_dataset_experiments (company, experiment);
CREATE TABLE mlflow_eval_dataset_records (
    company    TEXT NOT NULL,
    dataset    TEXT NOT NULL,
    id         TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    seq        BIGINT NOT NULL,
    doc        TEXT NOT NULL,
    PRIMARY KEY (company, dataset, id)
);
CREATE UNIQUE INDEX mlflow_eval_dataset_records_inputs ON mlflow_eval_dataset_records (company, dataset, input_hash);
CREATE UNIQUE INDEX mlflow_eval_dataset_records_seq ON mlflow_eval_dataset_records (company, dataset, seq);
CREATE TABLE mlflow_scorers (
    company    TEXT NOT NULL,
    experiment TEXT NOT NULL,
    name       TEXT NOT NULL,
    version    BIGINT NOT NULL,
    created    BIGINT NOT NULL,
    serialized TEXT NOT NULL,
    PRIMARY KEY (company, experiment, name, version)
);
