package store

import (
	"context"
)

// MLflow metric history (issue 38), in table mlflow_metrics: every point
// of a run as MLflow logs it, or, for a run whose history is kept in its
// scalar series (MLflowRun.ScalarHistory, migration 0150), the points
// those series do not hold.

// MetricPoint is one logged MLflow metric value; Value is the number's
// text ("NaN", "+Inf" and "-Inf" included).
type MetricPoint struct {
	Key       string
	Step      int64
	Timestamp int64
	Value     string
	MetricLinks
	// InScalars marks a point that is also its series' stored scalar
	// point at its step (a finite point with links).
	InScalars bool
}

// MetricLinks are what a point may name besides its run: the logged
// model it measures and the dataset it was computed on ("" for none).
type MetricLinks struct {
	ModelID       string
	DatasetName   string
	DatasetDigest string
}

// AddMetricPoints appends points to task's history.
func (db *DB) AddMetricPoints(ctx context.Context, q Querier, task string, pts []MetricPoint) error {
	return InsertRows(ctx, q, db.D, `INSERT INTO mlflow_metrics (task, metric_key, step, ts, value, model_id, dataset_name, dataset_digest, in_scalars)`,
		"(?, ?, ?, ?, ?, ?, ?, ?, ?)", 9, "", len(pts), func(args []any, i int) []any {
			p := &pts[i]
			return append(args, task, p.Key, p.Step, p.Timestamp, p.Value, p.ModelID, p.DatasetName, p.DatasetDigest, boolInt(p.InScalars))
		})
}

// boolInt is a flag column's value.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// KeepReplacedPoints keeps in task's history the scalar points a write
// replaced: a point whose row is marked InScalars loses the mark (the
// row now holds it alone), any other gets a row.
func (db *DB) KeepReplacedPoints(ctx context.Context, q Querier, task string, pts []MetricPoint) error {
	var add []MetricPoint
	for _, p := range pts {
		res, err := q.ExecContext(ctx, `UPDATE mlflow_metrics SET in_scalars = 0 WHERE task = ? AND metric_key = ? AND step = ? AND in_scalars = 1`, task, p.Key, p.Step)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			add = append(add, p)
		}
	}
	return db.AddMetricPoints(ctx, q, task, add)
}

// MetricHistory reads up to limit rows of one metric of task from offset
// on, in (step, timestamp, insertion) order.
func (db *DB) MetricHistory(ctx context.Context, task, key string, offset, limit int) ([]MetricPoint, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT step, ts, value, model_id, dataset_name, dataset_digest, in_scalars FROM mlflow_metrics
		WHERE task = ? AND metric_key = ? ORDER BY step, ts, id LIMIT ? OFFSET ?`, task, key, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []MetricPoint{}
	for rows.Next() {
		p := MetricPoint{Key: key}
		var in int
		if err := rows.Scan(&p.Step, &p.Timestamp, &p.Value, &p.ModelID, &p.DatasetName, &p.DatasetDigest, &in); err != nil {
			return nil, err
		}
		p.InScalars = in != 0
		out = append(out, p)
	}
	return out, rows.Err()
}

// MetricKeys lists the metric keys logged for task.
func (db *DB) MetricKeys(ctx context.Context, task string) ([]string, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT DISTINCT metric_key FROM mlflow_metrics WHERE task = ? ORDER BY metric_key`, task)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// DeleteMetricPoints removes the history of tasks.
func (db *DB) DeleteMetricPoints(ctx context.Context, q Querier, tasks []string) error {
	if len(tasks) == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_metrics WHERE task IN (`+Placeholders(len(tasks))+`)`, Args(tasks)...)
	return err
}

// MLflowRun is the part of a task's document only the MLflow API uses.
type MLflowRun struct {
	// Tags are the run's tags, exactly as logged.
	Tags map[string]string `json:"tags,omitempty"`
	// Metrics are the latest value of each metric key (MLflow's rule:
	// highest step, then newest timestamp, then largest value).
	Metrics map[string]*LatestMetric `json:"metrics,omitempty"`
	// StartTime and EndTime are epoch ms as the client gave them.
	StartTime *int64 `json:"start_time,omitempty"`
	EndTime   *int64 `json:"end_time,omitempty"`
	// Inputs are the dataset inputs of log-inputs.
	Inputs []*MLflowDatasetInput `json:"inputs,omitempty"`
	// ModelInputs are the logged models given to log-inputs (ids, once
	// each); ModelOutputs those of runs/outputs.
	ModelInputs  []string             `json:"model_inputs,omitempty"`
	ModelOutputs []*MLflowModelOutput `json:"model_outputs,omitempty"`
	// ArtifactURI is the run's artifact location.
	ArtifactURI string `json:"artifact_uri,omitempty"`
	// UserID is the user_id the client gave ("unknown" when none).
	UserID string `json:"user_id,omitempty"`
	// ScalarHistory: the run's finite points are kept once, in its
	// scalar series, and mlflow_metrics holds only the rest. Runs that
	// logged metrics before migration 0150 keep every point in
	// mlflow_metrics (and a copy in the series).
	ScalarHistory bool `json:"scalar_history,omitempty"`
}

// LatestMetric is the latest point of one metric key. Num is set when the
// value is finite (search filters compare it).
type LatestMetric struct {
	Value     string   `json:"value"`
	Num       *float64 `json:"num,omitempty"`
	Step      int64    `json:"step"`
	Timestamp int64    `json:"timestamp"`
}

// MLflowModelOutput is a logged model a run produced, at a step.
type MLflowModelOutput struct {
	ModelID string `json:"model_id"`
	Step    int64  `json:"step"`
}

// MLflowDatasetInput is one dataset logged as a run's input.
type MLflowDatasetInput struct {
	Name       string            `json:"name"`
	Digest     string            `json:"digest"`
	SourceType string            `json:"source_type"`
	Source     string            `json:"source"`
	Schema     string            `json:"schema,omitempty"`
	Profile    string            `json:"profile,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
}

// MLflowExperiment is the part of a project's document only the MLflow
// API uses.
type MLflowExperiment struct {
	// Name is the experiment's name as given, when the project's path
	// name normalises it (a leading "/").
	Name             string            `json:"name,omitempty"`
	Tags             map[string]string `json:"tags,omitempty"`
	ArtifactLocation string            `json:"artifact_location,omitempty"`
}

// ExperimentsByName returns the projects of company an MLflow
// experiment name names: those whose document keeps it as their MLflow
// name, else those of that project name without an MLflow name.
func (db *DB) ExperimentsByName(ctx context.Context, q Querier, company, name, projectName string) ([]*Project, error) {
	path := db.D.JSONPathArg([]string{"mlflow", "name"})
	mn := db.D.JSONText("doc")
	return db.Projects().Select(ctx, q, "company = ? AND ("+mn+" = ? OR (name = ? AND COALESCE("+mn+", '') = ''))",
		company, path, name, projectName, path)
}
