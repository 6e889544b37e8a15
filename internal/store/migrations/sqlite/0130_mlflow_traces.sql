-- MLflow 3 traces (issue 38): a trace's info (its own columns for what
-- searches order and page by, the rest a JSON document), its spans (one
-- compact JSON document a span, as MLflow's traces.json holds them) and
-- its assessments (one JSON document each).
CREATE TABLE mlflow_traces (
    company       TEXT NOT NULL,
    trace_id      TEXT NOT NULL,
    experiment_id TEXT NOT NULL,
    request_time  BIGINT NOT NULL,
    duration      BIGINT NOT NULL,
    state         TEXT NOT NULL,
    doc           TEXT NOT NULL,
    PRIMARY KEY (company, trace_id)
);
CREATE INDEX mlflow_traces_experiment ON mlflow_traces (company, experiment_id, request_time);
CREATE TABLE mlflow_trace_spans (
    company  TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    span_id  TEXT NOT NULL,
    doc      TEXT NOT NULL,
    PRIMARY KEY (company, trace_id, span_id)
);
CREATE TABLE mlflow_assessments (
    company       TEXT NOT NULL,
    trace_id      TEXT NOT NULL,
    assessment_id TEXT NOT NULL,
    doc           TEXT NOT NULL,
    PRIMARY KEY (company, assessment_id)
);
CREATE INDEX mlflow_assessments_trace ON mlflow_assessments (company, trace_id);
