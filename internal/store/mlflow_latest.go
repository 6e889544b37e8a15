package store

import (
	"context"
)

// The latest value of each metric key of MLflow runs, in table
// mlflow_latest_metrics beside the runs' documents (which hold the same
// values, with their text, step and timestamp): runs/search compares and
// orders by them through an index instead of reading every document.

// LatestNum is a metric key's latest value; Num is nil when the value is
// NaN or ±inf.
type LatestNum struct {
	Key string
	Num *float64
}

// MLflowLatestMetric is the SQL of a tasks row's latest finite value of
// one metric key (its one argument), NULL when it has none.
const MLflowLatestMetric = `SELECT num FROM mlflow_latest_metrics WHERE mlflow_latest_metrics.task = tasks.id AND metric_key = ?`

// MLflowLatestDriver walks the finite latest values of one metric key in
// order (index mlflow_latest_metrics_num), for searches ordered by it.
func MLflowLatestDriver(key string) *Driver {
	return &Driver{From: "mlflow_latest_metrics lm", Where: "lm.metric_key = ? AND lm.num IS NOT NULL",
		Args: []any{key}, Row: "lm.task", Value: "lm.num"}
}

// SetLatestMetrics writes task's latest values of the given keys.
func (db *DB) SetLatestMetrics(ctx context.Context, q Querier, task string, ls []LatestNum) error {
	return InsertRows(ctx, q, db.D, `INSERT INTO mlflow_latest_metrics (task, metric_key, num)`, "(?, ?, ?)", 3,
		` ON CONFLICT (task, metric_key) DO UPDATE SET num = excluded.num`, len(ls), func(args []any, i int) []any {
			var num any
			if l := ls[i]; l.Num != nil {
				num = *l.Num
			}
			return append(args, task, ls[i].Key, num)
		})
}

// DeleteLatestMetrics removes the latest values of tasks (deleted).
func (db *DB) DeleteLatestMetrics(ctx context.Context, q Querier, tasks []string) error {
	if len(tasks) == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_latest_metrics WHERE task IN (`+Placeholders(len(tasks))+`)`, Args(tasks)...)
	return err
}
